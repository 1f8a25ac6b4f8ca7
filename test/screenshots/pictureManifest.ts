/**
 * Where each README picture comes from: media/screenshots/manifest.json, written by
 * `npm run screenshots` beside the pictures and read by test/tooling/readmePictures.test.ts.
 * Each picture names the command that made it and the commit of the code it ran (and whether
 * that code had changes not committed), the data it came from (the demo's config and its npm
 * servers' versions, and the scenario: what the demo's agent and person did before it was
 * taken), its colour scheme and the picture of the same data in the other scheme, the servers
 * the workspace had, and the text the page showed when it was taken: the evidence that no test
 * fixture and no path of a developer's checkout is in it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PictureRecord {
  /** What made it: `npm run screenshots`, with its flags. */
  command: string;
  /** The code it ran: the commit, and whether files other than the pictures differed from it. */
  commit: CodeVersion;
  /** The data it came from: the demo workspace as it was. */
  demo: DemoFingerprint;
  scenario: string;
  scheme: 'light' | 'dark';
  /** The picture of the same data in the other scheme. */
  pair: string;
  /** The servers the workspace configured. */
  servers: string[];
  /** What the page showed when the picture was taken (its text, whitespace folded). */
  text: string;
}

export interface PictureManifest {
  /** The pictures, each with what made it. */
  images: Record<string, PictureRecord>;
  /** Pictures the README wants that cannot be made yet, and why. */
  missing: Record<string, string>;
}

export interface CodeVersion {
  sha: string;
  /** Uncommitted changes (outside media/screenshots/) were in the code that ran. */
  dirty: boolean;
}

/** The commit this checkout is at, and whether it has changes besides the pictures. */
export function codeVersion(root: string): CodeVersion {
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
    return r.stdout.trim();
  };
  const sha = git('rev-parse', 'HEAD');
  const changes = git('status', '--porcelain', '--', '.', ':(exclude)media/screenshots');
  return { sha, dirty: changes.length > 0 };
}

/** What the demo ran: its config's hash and the versions of the npm servers it names. */
export interface DemoFingerprint {
  config: string;
  packages: Record<string, string>;
}

/** The npm servers the demo runs: their versions decide the tools and the figures the pictures show. */
export const DEMO_PACKAGES = [
  '@modelcontextprotocol/server-everything',
  '@modelcontextprotocol/server-filesystem',
  '@modelcontextprotocol/server-memory',
];

export function demoFingerprint(root: string): DemoFingerprint {
  const config = createHash('sha256')
    .update(readFileSync(join(root, 'examples', 'demo', '.vscode', 'mcp.json')))
    .digest('hex')
    .slice(0, 16);
  const packages: Record<string, string> = {};
  for (const name of DEMO_PACKAGES) {
    const pkg = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    };
    packages[name] = pkg.version;
  }
  return { config, packages };
}

/**
 * What test fixtures put in the names and paths a page shows: fixture servers' files, the e2e
 * workspace and its temp folder, the test index's label, the fixture servers' names and tools.
 */
export const FIXTURE_MARKERS = [
  'test/fixtures',
  'test/e2e',
  'e2e-workspace',
  'mcp-lens-e2e',
  'fixtureWorkspace',
  '(test)',
  'hostile',
  'render_banner',
  'asker',
  'ask_name',
  'gated',
];

/** Fixture markers and developer paths in `text` (`root`: this checkout, whose path must not show). */
export function provenanceProblems(text: string, root: string): string[] {
  const found = FIXTURE_MARKERS.filter((m) => text.includes(m)).map((m) => `fixture marker "${m}"`);
  if (text.includes(root)) found.push(`the checkout's path ${root}`);
  for (const home of ['/home/', '/Users/', '/work/wt/', '/root/'])
    if (text.includes(home)) found.push(`a developer path (${home}…)`);
  return found;
}

/** Text as recorded: whitespace runs folded, so the record reads as what was on screen. */
export function foldedText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
