// The README's pictures come from the demo, never from a test fixture: every picture the README
// shows is in media/screenshots/ and in the manifest `npm run screenshots` writes beside them,
// every picture there is one the README shows (no stale one left), each made by that command
// from committed code and from examples/demo as it is today (its config and its npm servers'
// versions), showing only the demo's servers and no fixture marker or developer path, light and
// dark from the same data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTE, ROOT, demoServers } from '../screenshots/demoWorkspace';
import { demoFingerprint, provenanceProblems, type PictureManifest } from '../screenshots/pictureManifest';

const MEDIA = join(ROOT, 'media', 'screenshots');
const manifestFile = join(MEDIA, 'manifest.json');

function manifest(): PictureManifest {
  assert.ok(existsSync(manifestFile), 'media/screenshots/manifest.json: run npm run screenshots');
  return JSON.parse(readFileSync(manifestFile, 'utf8')) as PictureManifest;
}

/** The pictures README.md shows: markdown images and <img>/<source> of <picture> elements. */
function readmePictures(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const found = [
    ...readme.matchAll(/\]\((media\/screenshots\/[^)\s]+)\)/g),
    ...readme.matchAll(/(?:src|srcset)="(media\/screenshots\/[^"]+)"/g),
  ].map((m) => m[1]!.slice('media/screenshots/'.length));
  return [...new Set(found)];
}

test('every picture the README shows is there, with where it came from', () => {
  const m = manifest();
  const shown = readmePictures();
  assert.ok(shown.length >= 6, shown.join(', '));
  for (const name of shown) {
    assert.ok(existsSync(join(MEDIA, name)), `${name} exists`);
    assert.ok(m.images[name], `${name} is in the manifest`);
  }
  for (const name of readdirSync(MEDIA).filter((n) => n.endsWith('.png')))
    assert.ok(m.images[name], `${name} is in the manifest (a picture no run made has no place here)`);
  for (const name of Object.keys(m.images)) assert.ok(existsSync(join(MEDIA, name)), `${name} exists`);
  for (const name of Object.keys(m.missing))
    assert.ok(!shown.some((s) => s.startsWith(name)), `${name} is not made yet`);
});

test('no stale picture: every picture in media/screenshots/ is one the README shows', () => {
  const shown = new Set(readmePictures());
  const stale = readdirSync(MEDIA).filter((n) => n !== 'manifest.json' && !shown.has(n));
  assert.deepEqual(stale, [], 'pictures the README does not show: delete them or show them');
});

test('each picture says the command and the committed code that made it', () => {
  for (const [name, record] of Object.entries(manifest().images)) {
    assert.match(record.command, /^npm run screenshots( -- --no-vscode)?$/, name);
    assert.match(record.commit.sha, /^[0-9a-f]{40}$/, `${name}: the commit it was made at`);
    assert.equal(
      record.commit.dirty,
      false,
      `${name} was made from code with uncommitted changes: commit, then run npm run screenshots`,
    );
  }
});

test('no picture was made from a test fixture or shows a developer path', () => {
  const m = manifest();
  const servers = [...demoServers(), REMOTE].sort();
  for (const [name, record] of Object.entries(m.images)) {
    assert.deepEqual(record.servers, servers, `${name}: the demo's servers`);
    assert.ok(record.scenario.length > 40, `${name} says what made it`);
    assert.deepEqual(provenanceProblems(record.text, ROOT), [], name);
  }
});

test('light and dark pictures show the same data', () => {
  const m = manifest();
  // A clock in the page may tick between two pictures taken one after the other, and a search
  // shown again takes its own milliseconds.
  const data = (text: string) =>
    text.replace(/\b\d{1,2}:\d{2}(:\d{2})?( [AP]M)?/g, '<time>').replace(/\b\d+ ms\b/g, '<ms>');
  for (const [name, record] of Object.entries(m.images)) {
    const pair = m.images[record.pair];
    assert.ok(pair, `${name}: its ${record.scheme === 'light' ? 'dark' : 'light'} picture ${record.pair}`);
    assert.notEqual(pair.scheme, record.scheme);
    assert.equal(data(pair.text), data(record.text), `${name} and ${record.pair}`);
  }
});

test("the pictures show today's demo: its config and its servers' versions as they are now", () => {
  const today = demoFingerprint(ROOT);
  for (const [name, record] of Object.entries(manifest().images))
    assert.deepEqual(
      record.demo,
      today,
      `${name}: examples/demo or its npm servers changed since it was made: run npm run screenshots`,
    );
});
