// A LensApp on real stdio servers (test/fixtures/servers/gated.mjs, hang-init.mjs), in-process:
// while a server is still starting, the work no one asked for — indexing the catalog, counting
// each server's tools/list tokens, writing the catalog cache — waits (app/startupQuiet.ts), a
// search meanwhile still finds every tool listed, and all of it happens once the last server
// is up; a server that hangs holds it no longer than the bound; the gateway's clients hear that
// the tools/list changed once, when the servers are up. Every wait is on a change event, a
// notification or a file event, never a sleep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LensApp } from '../../server/src/app/lensApp';
import { RecordingIndex } from '../fixtures/recordingIndex';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { connectGatewayClient } from '../../bench/src/benchGateway';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { untilChanged } from '../fixtures/untilChanged';

const SERVERS = join(__dirname, '..', 'fixtures', 'servers');
const gated = (prefix: string, gate?: string) => ({
  type: 'stdio',
  command: process.execPath,
  args: [join(SERVERS, 'gated.mjs'), '--prefix', prefix, ...(gate ? ['--gate', gate] : [])],
});
const hanging = { type: 'stdio', command: process.execPath, args: [join(SERVERS, 'hang-init.mjs')] };

async function start(servers: Record<string, unknown>, startupQuietMaxMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-quiet-'));
  const configFile = join(dir, 'mcp.json');
  writeFileSync(configFile, JSON.stringify({ servers }));
  const index = new RecordingIndex();
  const options = inMemoryLensOptions(dir, { connectTimeoutSeconds: 600 });
  const lens = await LensApp.start({ ...options, configFile, index, waitForServers: false, startupQuietMaxMs });
  const until = <T>(what: string, check: () => T | undefined | false) =>
    untilChanged(
      lens,
      check,
      () =>
        `timed out waiting for ${what}; servers: ${JSON.stringify(lens.servers().map((s) => [s.name, s.state, s.tokens]))}`,
      30_000,
    );
  const row = (name: string) => lens.servers().find((s) => s.name === name);
  return { dir, lens, index, until, row, cache: join(options.storageDir, 'catalog.json') };
}

/** Resolves once `check` holds for the file, checked now and on every event in its folder. */
function untilFile(file: string, check: (text: string) => boolean): Promise<void> {
  const holds = () => existsSync(file) && check(readFileSync(file, 'utf8'));
  return new Promise((resolve, reject) => {
    const dir = join(file, '..');
    const timer = setTimeout(() => (watcher.close(), reject(new Error(`timed out waiting for ${file}`))), 30_000);
    const watcher = watch(dir, () => {
      if (!holds()) return;
      clearTimeout(timer);
      watcher.close();
      resolve();
    });
    if (holds()) (clearTimeout(timer), watcher.close(), resolve());
  });
}

/** The turns of the event loop a count or a sync of one tool takes when it runs at once (before this change, it did). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('while a server starts, indexing, token counts and the catalog cache wait; a search finds what is listed at once; all of it happens once the server is up', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-quiet-gate-'));
  const gate = join(dir, 'open');
  const w = await start({ a: gated('a'), b: gated('b', gate) }, 120_000);
  try {
    await w.until('a listed', () => w.row('a')?.state === 'ready' && w.lens.tools().some((t) => t.name === 'a_a_ping'));
    // Asking for the rows is what starts a count; the index and the count would have run by now.
    assert.equal(w.row('a')?.tokens, undefined);
    await turns(20);
    assert.equal(w.index.holds('a_a_ping'), false, 'a catalog change is not indexed while b starts');
    assert.equal(w.row('a')?.tokens, undefined, 'tokens are not counted while b starts');
    assert.equal(w.row('b')?.state, 'starting');

    // A search syncs at once: it finds a's tool and says b is still starting.
    const found = await w.lens.search({ query: 'pong from a' });
    assert.deepEqual(
      found.hits.map((h) => h.name),
      ['a_a_ping'],
    );
    assert.deepEqual(found.starting, ['b']);

    // b comes up: the index gets both, the rows their counts, the cache both servers and the counts.
    writeFileSync(gate, 'open');
    await w.until('b listed and indexed', () => w.row('b')?.state === 'ready' && w.index.holds('b_b_ping'));
    await w.until('both counted', () => w.row('a')?.tokens !== undefined && w.row('b')?.tokens !== undefined);
    await untilFile(w.cache, (text) => {
      const c = JSON.parse(text) as { servers: Record<string, unknown>; tokenCounts: Record<string, number> };
      return 'a' in c.servers && 'b' in c.servers && Object.keys(c.tokenCounts).length >= 2;
    });
  } finally {
    await w.lens.close();
    rmSync(w.dir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that hangs while starting holds the deferred work no longer than the bound', async () => {
  const w = await start({ a: gated('a'), h: hanging }, 300);
  try {
    await w.until('a listed', () => w.row('a')?.state === 'ready');
    // Nobody searches: the index, the counts and the cache come after the bound, h still starting.
    await w.until('a indexed', () => w.index.holds('a_a_ping'));
    await w.until('a counted', () => w.row('a')?.tokens !== undefined);
    await untilFile(w.cache, (text) => 'a' in (JSON.parse(text) as { servers: object }).servers);
    assert.equal(w.row('h')?.state, 'starting', 'h never answered initialize');
  } finally {
    await w.lens.close();
    rmSync(w.dir, { recursive: true, force: true });
  }
});

test('while servers come up one by one, a client hears once that the tools/list changed, when the last is up', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-quiet-gates-'));
  const gates = ['a', 'b', 'c'].map((n) => join(dir, n));
  const w = await start({ a: gated('a', gates[0]), b: gated('b', gates[1]), c: gated('c', gates[2]) }, 120_000);
  const { gateway, client } = await connectGatewayClient(w.lens, 'mcp-lens-test');
  try {
    let notices = 0;
    let heard: () => void = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notices++;
      heard();
    });
    const findTools = async () => (await client.listTools()).tools.find((t) => t.name === 'find_tools')!.description!;
    const before = await findTools();
    // Each server coming up adds its domain to find_tools's description.
    for (const [i, name] of ['a', 'b', 'c'].entries()) {
      writeFileSync(gates[i]!, 'open');
      await w.until(
        `${name} listed`,
        () => w.row(name)?.state === 'ready' && w.lens.tools().some((t) => t.server === name),
      );
    }
    if (notices === 0) await new Promise<void>((resolve) => (heard = resolve));
    const after = await findTools();
    assert.notEqual(after, before, "the servers' tools changed the description");
    assert.equal(notices, 1, 'one tools/list_changed for the whole start, not one per server');
  } finally {
    await client.close();
    await gateway.close();
    await w.lens.close();
    rmSync(w.dir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
