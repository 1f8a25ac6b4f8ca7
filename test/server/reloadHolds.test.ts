// Reload holds (LensControl.pauseReloads / resumeReloads), in-process over a real server: a
// change read while reloads are held is not applied, holds nest, the last release says a reload
// is due, and that reload adds the new server without touching the running one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LensApp } from '../../server/src/app/lensApp';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { fingerprintsOf } from '../fixtures/fingerprints';

const GATED = join(__dirname, '..', 'fixtures', 'servers', 'gated.mjs');
const gated = (prefix: string) => ({ type: 'stdio', command: process.execPath, args: [GATED, '--prefix', prefix] });

test('a change read while reloads are held waits for the last release, then starts only what is new', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-holds-'));
  mkdirSync(join(dir, '.vscode'));
  const write = (servers: Record<string, unknown>) =>
    writeFileSync(join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
  write({ a: gated('a') });
  // Servers settle before start() and reload() resolve: each step below is already applied.
  // Both definitions approved by the user (no --trust, which approves only what is there at start).
  const lens = await LensApp.start({
    ...inMemoryLensOptions(dir),
    autoApprove: false,
    approvals: fingerprintsOf(dir, { a: gated('a'), b: gated('b') }),
  });
  const pid = (name: string) =>
    (lens as unknown as { pool: { statuses(): { name: string; pid?: number }[] } }).pool
      .statuses()
      .find((s) => s.name === name)?.pid;
  const names = () => lens.servers().map((s) => `${s.name}:${s.state}`);
  try {
    assert.deepEqual(names(), ['a:ready']);
    const first = pid('a');
    assert.ok(first);

    lens.pauseReloads();
    lens.pauseReloads();
    write({ a: gated('a'), b: gated('b') });
    await lens.reload();
    assert.deepEqual(names(), ['a:ready'], 'held: the change is not applied');
    assert.equal(lens.resumeReloads(), false, 'one hold is still on');
    assert.deepEqual(names(), ['a:ready']);
    assert.equal(lens.resumeReloads(), true, 'the last release says a file changed meanwhile');
    assert.equal(lens.resumeReloads(), false, 'and says it once');

    await lens.reload();
    assert.deepEqual(names(), ['a:ready', 'b:ready']);
    assert.equal(pid('a'), first, 'the running server was left alone');
  } finally {
    await lens.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
