/**
 * Makes every README picture from the demo workspace (demoWorkspace.ts), light and dark from the
 * same data, and writes them with their manifest (pictureManifest.ts) into media/screenshots/,
 * only once every one was taken: a failed run leaves the folder as it was.
 *   node --import tsx test/screenshots/main.ts [--no-vscode]
 * (`npm run screenshots` builds first; --no-vscode retakes the dashboard's pictures only and
 * keeps the editor's.)
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../fixtures/lens/dashboardPage';
import { fallingQualityPictures, mainDashboardPictures } from './dashboardPictures';
import { ROOT, startDemoWorkspace } from './demoWorkspace';
import type { PictureManifest } from './pictureManifest';
import { Pictures } from './pictures';
import { CONSENT_PICTURE, vscodePictures } from './vscodePictures';

const MEDIA = join(ROOT, 'media', 'screenshots');
const MANIFEST = join(MEDIA, 'manifest.json');

async function main(): Promise<void> {
  const withVsCode = !process.argv.includes('--no-vscode');
  const out = mkdtempSync(join(tmpdir(), 'mcp-lens-pictures-'));
  try {
    const demo = await startDemoWorkspace();
    const command = `npm run screenshots${withVsCode ? '' : ' -- --no-vscode'}`;
    const pictures = new Pictures(out, demo.servers, ROOT, command);
    try {
      const browser = await launchChromium();
      try {
        await mainDashboardPictures(demo, browser, pictures);
        await fallingQualityPictures(demo, browser, pictures);
      } finally {
        await browser.close();
      }
      if (withVsCode) await vscodePictures(demo, pictures);
    } finally {
      await demo.close();
    }
    publish(out, pictures.images, withVsCode);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Copies the pictures into media/screenshots/ with their manifest; a full run also drops pictures it no longer makes. */
function publish(out: string, taken: PictureManifest['images'], full: boolean): void {
  const kept: PictureManifest['images'] = {};
  if (!full && existsSync(MANIFEST)) {
    const before = JSON.parse(readFileSync(MANIFEST, 'utf8')) as PictureManifest;
    for (const [name, record] of Object.entries(before.images)) if (!(name in taken)) kept[name] = record;
  }
  const images = Object.fromEntries(Object.entries({ ...kept, ...taken }).sort(([a], [b]) => (a < b ? -1 : 1)));
  for (const name of Object.keys(taken)) copyFileSync(join(out, name), join(MEDIA, name));
  if (full)
    for (const name of readdirSync(MEDIA)) if (name.endsWith('.png') && !(name in images)) rmSync(join(MEDIA, name));
  const manifest: PictureManifest = {
    images,
    missing: { [CONSENT_PICTURE.name]: CONSENT_PICTURE.why },
  };
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`screenshots: ${Object.keys(taken).length} pictures written to media/screenshots/`);
}

main().catch((err: unknown) => {
  console.error(`screenshots: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  console.error('media/screenshots/ is left as it was');
  process.exitCode = 1;
});
