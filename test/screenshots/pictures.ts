/**
 * The pictures one `npm run screenshots` run takes, each in light and dark from the same data,
 * with what made them (pictureManifest.ts). A picture that shows a fixture marker or a path of
 * this checkout is refused when it is taken, so a run never writes one.
 */
import { join } from 'node:path';
import {
  codeVersion,
  demoFingerprint,
  foldedText,
  provenanceProblems,
  type CodeVersion,
  type DemoFingerprint,
  type PictureRecord,
} from './pictureManifest';

export type Scheme = 'light' | 'dark';

/** Takes the picture in one scheme (to `file`) and returns the text the page showed. */
export type Shoot = (scheme: Scheme, file: string) => Promise<string>;

export class Pictures {
  readonly images: Record<string, PictureRecord> = {};
  /** Read once at the start: the code and the demo every picture of the run came from. */
  private readonly commit: CodeVersion;
  private readonly demo: DemoFingerprint;

  constructor(
    /** Where this run writes its pictures (copied into media/screenshots/ once every one is taken). */
    readonly dir: string,
    private readonly servers: string[],
    private readonly root: string,
    /** The command that made them, as a person would type it. */
    private readonly command: string,
  ) {
    this.commit = codeVersion(root);
    this.demo = demoFingerprint(root);
  }

  /** `<name>-light.png` and `<name>-dark.png`, one right after the other: nothing changes in between. */
  async pair(name: string, scenario: string, shoot: Shoot): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      const file = `${name}-${scheme}.png`;
      const text = foldedText(await shoot(scheme, join(this.dir, file)));
      const problems = provenanceProblems(text, this.root);
      if (problems.length) throw new Error(`${file} shows ${problems.join(', ')}`);
      this.images[file] = {
        command: this.command,
        commit: this.commit,
        demo: this.demo,
        scenario,
        scheme,
        pair: `${name}-${scheme === 'light' ? 'dark' : 'light'}.png`,
        servers: this.servers,
        text,
      };
    }
  }
}
