// Live configuration, in-process: a LensApp watching a real workspace's .vscode/mcp.json while
// the test edits it, as the editor runs one (no --trust: each definition approved by its
// fingerprint). The user's own edits of approved definitions: adding, changing and removing a
// server touches that server only; a syntax error keeps the last good configuration running and
// says where; a new definition waits for approval. Every wait is on a Lens change event, never
// a sleep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerStatus } from '../../protocol/model';
import { LensApp } from '../../server/src/app/lensApp';
import type { LensAppOptions } from '../../server/src/app/lensAppOptions';
import { isProcessAlive } from '../../server/src/adapters/processProbe';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { fingerprintsOf } from '../fixtures/fingerprints';
import { untilChanged } from '../fixtures/untilChanged';

const GATED = join(__dirname, '..', 'fixtures', 'servers', 'gated.mjs');

interface Live {
  dir: string;
  mcpJson: string;
  lens: LensApp;
  write(servers: Record<string, unknown>): void;
  until<T>(what: string, check: () => T | undefined | false, ms?: number): Promise<T>;
  server(name: string): ServerStatus | undefined;
  close(): Promise<void>;
}

/** A LensApp on `dir` as the sidecar runs one (answers at once), keyword index in memory, everything approved. */
function lensOptions(dir: string, settings: Record<string, unknown> = {}): LensAppOptions {
  return { ...inMemoryLensOptions(dir, settings), waitForServers: false };
}

function gated(prefix: string, extra: string[] = []): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args: [GATED, '--prefix', prefix, ...extra] };
}

async function live(servers: Record<string, unknown>, options: Partial<LensAppOptions> = {}): Promise<Live> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-live-'));
  mkdirSync(join(dir, '.vscode'));
  const mcpJson = join(dir, '.vscode', 'mcp.json');
  const write = (s: Record<string, unknown>) => writeFileSync(mcpJson, JSON.stringify({ servers: s }, null, 2));
  write(servers);
  const lens = await LensApp.start({ ...lensOptions(dir), watch: true, ...options });
  const server = (name: string) => lens.servers().find((s) => s.name === name);
  return {
    dir,
    mcpJson,
    lens,
    write,
    server,
    until: (what, check, ms = 20_000) =>
      untilChanged(
        lens,
        check,
        () =>
          `timed out waiting for ${what}; servers: ${JSON.stringify(lens.servers().map((s) => [s.name, s.state, s.error]))}`,
        ms,
      ),
    async close() {
      await lens.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const toolNames = (lens: LensApp) =>
  lens
    .tools()
    .map((t) => t.originalName)
    .sort();
const pidOf = (w: Live, name: string) =>
  w.lens.servers().find((s) => s.name === name)?.state === 'ready' &&
  (w.lens as unknown as { pool: { statuses(): { name: string; pid?: number }[] } }).pool
    .statuses()
    .find((s) => s.name === name)?.pid;

/** Approved as the user approves them (their fingerprints), without --trust. */
const approved = (servers: Record<string, unknown>): Partial<LensAppOptions> => ({
  autoApprove: false,
  approvals: fingerprintsOf(tmpdir(), servers),
});

test('adding, changing and removing a server in mcp.json starts, restarts or stops that server only', async (t) => {
  const w = await live({ a: gated('a') }, approved({ a: gated('a'), b: gated('b') }));
  try {
    await w.until('a ready', () => w.server('a')?.state === 'ready');
    const pidA = pidOf(w, 'a');
    assert.ok(pidA);

    w.write({ a: gated('a'), b: gated('b') });
    const added = Date.now();
    await w.until("b's tools", () => toolNames(w.lens).includes('b_ping'));
    const found = await w.lens.search({ query: 'b_ping' });
    assert.ok(
      found.hits.some((h) => h.name === 'b_b_ping'),
      JSON.stringify(found.hits),
    );
    assert.equal(pidOf(w, 'a'), pidA, 'a kept running');
    // The target is 2 s; the assertion leaves room for a loaded machine.
    const took = Date.now() - added;
    t.diagnostic(`b's tools were searchable ${took} ms after mcp.json was written`);
    assert.ok(took < 10_000, `b's tools appeared after ${took} ms`);

    const pidB = pidOf(w, 'b');
    w.write({ a: gated('a'), b: gated('b', ['--changed']) });
    // A changed definition is a new one: the user approves it, and it replaces the old.
    await w.until('b changed, waiting for approval', () => w.lens.pendingApprovals().find((p) => p.name === 'b'));
    await w.lens.approve(fingerprintsOf(tmpdir(), { b: gated('b', ['--changed']) }));
    await w.until('b restarted', () => w.server('b')?.state === 'ready' && pidOf(w, 'b') !== pidB && pidOf(w, 'b'));
    assert.equal(pidOf(w, 'a'), pidA, 'a was not restarted by a change to b');

    w.write({ b: gated('b', ['--changed']) });
    // The pool announces the removal once the process has exited.
    await w.until(
      "a's tools and process gone",
      () => !toolNames(w.lens).includes('a_ping') && !w.server('a') && !isProcessAlive(pidA as number),
    );
  } finally {
    await w.close();
  }
});

test('a JSON syntax error keeps the last good configuration running and names file, line and column', async () => {
  const w = await live({ a: gated('a') }, approved({ a: gated('a'), c: gated('c') }));
  try {
    await w.until('a ready', () => w.server('a')?.state === 'ready');
    writeFileSync(w.mcpJson, '{\n  "servers": {\n    "a": { "type": "stdio", \n');
    const row = await w.until('a config-file row', () => w.lens.servers().find((s) => s.configFile));
    assert.equal(row.name, '.vscode/mcp.json');
    assert.equal(row.state, 'error');
    // What is wrong, where, in words; what MCP Lens does meanwhile apart, so each reads whole.
    assert.equal(row.error, 'line 4, column 1: not valid JSON: expected a property name in double quotes');
    assert.equal(row.note, 'MCP Lens keeps running the servers of its last valid version');
    const problem = w.lens.configProblems().find((p) => p.file === w.mcpJson);
    assert.ok(problem && problem.offset !== undefined, 'the problem carries an offset for an editor diagnostic');
    assert.equal(w.server('a')?.state, 'ready', 'a still runs');
    assert.deepEqual(toolNames(w.lens), ['a_ping']);

    // Fixed, with one more server: the row goes and the new server starts.
    w.write({ a: gated('a'), c: gated('c') });
    await w.until('fixed', () => !w.lens.servers().some((s) => s.configFile) && toolNames(w.lens).includes('c_ping'));
  } finally {
    await w.close();
  }
});

test('a new server from a workspace file waits for approval, and approving it later starts it', async () => {
  const w = await live({}, { autoApprove: false });
  try {
    w.write({ n: gated('n') });
    const pending = await w.until('n pending', () => w.lens.pendingApprovals().find((p) => p.name === 'n'));
    assert.equal(w.server('n')?.state, 'awaiting-approval');
    assert.deepEqual(toolNames(w.lens), []);
    await w.lens.approve({ n: pending.fingerprint });
    await w.until("n's tools", () => toolNames(w.lens).includes('n_ping'));
    // Changing its definition needs approval again; the old process stops.
    w.write({ n: gated('n', ['--changed']) });
    await w.until(
      'n pending again',
      () => w.server('n')?.state === 'awaiting-approval' && !toolNames(w.lens).includes('n_ping'),
    );
  } finally {
    await w.close();
  }
});

/**
 * Runs `a` (behind a gate file that is open) once so its catalog is cached, then starts the
 * same workspace, same definitions, with the gate closed: `a` cannot come up until the test
 * opens it again.
 */
async function restartedWithCache(
  extra: Record<string, unknown>,
  settings: Record<string, unknown> = {},
): Promise<{ lens: LensApp; openGate(): void; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-live-'));
  const gate = join(dir, 'gate');
  writeFileSync(gate, 'open');
  const options = (servers: Record<string, unknown>, s: Record<string, unknown>): LensAppOptions => {
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers }));
    return { ...lensOptions(dir, s), configFile: config };
  };
  const a = gated('a', ['--gate', gate]);
  // The first run only fills the cache, with the default settings: a short connect timeout
  // here would race the start of `a` on a loaded machine.
  const first = await LensApp.start({ ...options({ a }, {}), waitForServers: true });
  assert.equal(first.servers().find((s) => s.name === 'a')?.state, 'ready');
  await first.close();
  rmSync(gate);
  const lens = await LensApp.start(options({ a, ...extra }, settings));
  return {
    lens,
    openGate: () => writeFileSync(gate, 'open'),
    async close() {
      await lens.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const HANG = {
  type: 'stdio',
  command: process.execPath,
  args: [join(__dirname, '..', 'fixtures', 'servers', 'hang-init.mjs')],
};

test('find_tools answers from the last known catalog while a server starts, and a call waits for it', async () => {
  // `a` now waits for a gate the test opens; `hang` never answers initialize.
  const w = await restartedWithCache({ hang: HANG });
  try {
    // `hang` never listed: the search does not wait for it at all, and the cached tools of `a`
    // are there although `a` is not up.
    const found = await w.lens.search({ query: 'pong' });
    assert.deepEqual(
      found.hits.map((h) => h.name),
      ['a_a_ping'],
    );
    assert.deepEqual(found.starting, ['hang'], 'the answer names the server still starting without any known tools');
    // Generous for a loaded machine; a wait for `hang` would take seconds (it never answers).
    assert.ok(found.tookMs < 1000, `${found.tookMs} ms`);
    const second = await w.lens.search({ query: 'pong' });
    assert.ok(second.tookMs < 1000, `${second.tookMs} ms`);
    const a = w.lens.servers().find((s) => s.name === 'a');
    assert.equal(a?.state, 'starting');
    assert.equal(a?.fromCache, true);
    assert.equal(a?.toolCount, 1);
    assert.equal(w.lens.servers().find((s) => s.name === 'hang')?.state, 'starting');

    const call = w.lens.callTool('a_a_ping', {});
    w.openGate();
    const result = await call;
    assert.ok(!result.isError, JSON.stringify(result));
    assert.match(JSON.stringify(result.content), /pong from a/);
  } finally {
    await w.close();
  }
});

test('a first run, with no tools known yet, waits for the first server to list, not for one that hangs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-gate-'));
  const gate = join(dir, 'gate');
  const w = await live({ a: gated('a', ['--gate', gate]), hang: HANG });
  try {
    // Nothing is known: an answer now could only be empty, so the search waits for `a`...
    const search = w.lens.search({ query: 'pong' });
    const opened = Date.now();
    writeFileSync(gate, '');
    const found = await search;
    assert.deepEqual(
      found.hits.map((h) => h.originalName),
      ['a_ping'],
    );
    // ...and not for `hang`, which never answers: its wait would last the whole grace period (5 s).
    assert.deepEqual(found.starting, ['hang']);
    assert.ok(Date.now() - opened < 4000, `${Date.now() - opened} ms after a's gate opened`);
    // With tools known, no search waits.
    const again = await w.lens.search({ query: 'nothing like this' });
    assert.deepEqual(again.starting, ['hang']);
  } finally {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a call to a server that does not come up within the connect timeout fails with the reason', async () => {
  // Lazy startup: `a` starts with the call, so its 1 s connect timeout cannot run out before the
  // call is made (started at once, it could on a loaded machine, and its cached tool left first).
  const w = await restartedWithCache({}, { connectTimeoutSeconds: 1, startup: 'lazy' });
  try {
    assert.equal(w.lens.findTool('a_a_ping')?.server, 'a', 'the cached tool is found');
    const result = await w.lens.callTool('a_a_ping', {});
    assert.ok(result.isError);
    assert.match(
      JSON.stringify(result.content),
      /Server \\"a\\" is not ready .*no answer to initialize within 1000 ms/,
    );
    // A failed server's cached tools leave the catalog.
    await untilChanged(
      w.lens,
      () => w.lens.findTool('a_a_ping') === undefined,
      () => 'a_a_ping still in the catalog',
      10_000,
    );
  } finally {
    await w.close();
  }
});
