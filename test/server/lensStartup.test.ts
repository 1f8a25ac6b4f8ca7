// How a LensApp starts its servers, in-process, as the sidecar and `serve` run one: lazy startup
// from the settings (a server starts on its first call and stops after the idle timeout), and a
// find_tools description that is byte-identical from one start to the next (prompt caching).
// Every wait is on a Lens change event, never a sleep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LensApp } from '../../server/src/app/lensApp';
import type { LensAppOptions } from '../../server/src/app/lensAppOptions';
import { isProcessAlive } from '../../server/src/adapters/processProbe';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { connectGatewayClient } from '../../bench/src/benchGateway';
import { untilChanged } from '../fixtures/untilChanged';

const GATED = join(__dirname, '..', 'fixtures', 'servers', 'gated.mjs');

function gated(prefix: string, gate?: string): Record<string, unknown> {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [GATED, '--prefix', prefix, ...(gate ? ['--gate', gate] : [])],
  };
}

/** A workspace folder with one config file; `start` opens a LensApp on it as the sidecar does (answers at once). */
function workspace(servers: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-startup-'));
  const configFile = join(dir, 'mcp.json');
  writeFileSync(configFile, JSON.stringify({ servers }));
  const start = (settings: Record<string, unknown> = {}, extra: Partial<LensAppOptions> = {}) =>
    LensApp.start({ ...inMemoryLensOptions(dir, settings), configFile, waitForServers: false, ...extra });
  return { dir, start, close: () => rmSync(dir, { recursive: true, force: true }) };
}

const until = <T>(lens: LensApp, what: string, check: () => T | undefined | false, ms = 20_000) =>
  untilChanged(
    lens,
    check,
    () =>
      `timed out waiting for ${what}; servers: ${JSON.stringify(lens.servers().map((s) => [s.name, s.state, s.fromCache, s.error]))}`,
    ms,
  );

/** The pid of a server's process, while it has one. */
const pidOf = (lens: LensApp, name: string) =>
  (lens as unknown as { pool: { statuses(): { name: string; pid?: number }[] } }).pool
    .statuses()
    .find((s) => s.name === name)?.pid;

test('mcpLens.startup "lazy": a server starts on its first call and stops after the idle timeout, its tools searchable throughout', async () => {
  const ws = workspace({ a: gated('a') });
  // The idle timeout comes from mcpLens.idleTimeoutMinutes (a minute at least); the option
  // shortens it so the test waits for the stop itself.
  const lazy = { startup: 'lazy', idleTimeoutMinutes: 1 };
  try {
    // First run: no catalog is known for `a`, so it starts once to list its tools, then stops.
    const first = await ws.start(lazy, { idleTimeoutMs: 300 });
    try {
      const pid = await until(
        first,
        'a listed',
        () => first.servers().find((s) => s.name === 'a')?.state === 'ready' && pidOf(first, 'a'),
      );
      await until(first, 'the idle stop', () => first.servers().find((s) => s.name === 'a')?.state === 'idle');
      assert.ok(!isProcessAlive(pid as number), 'the idle process is gone');
      const row = first.servers().find((s) => s.name === 'a')!;
      assert.equal(row.fromCache, true);
      assert.equal(row.toolCount, 1);
      assert.deepEqual(
        (await first.search({ query: 'pong' })).hits.map((h) => h.name),
        ['a_a_ping'],
        'searchable while stopped',
      );
      // A call starts it again, and after the timeout it stops again.
      const result = await first.callTool('a_a_ping', {});
      assert.ok(!result.isError, JSON.stringify(result));
      const again = pidOf(first, 'a');
      assert.ok(again && again !== pid, 'a new process answered the call');
      await until(
        first,
        'the second idle stop',
        () => first.servers().find((s) => s.name === 'a')?.state === 'idle' && !isProcessAlive(again),
      );
    } finally {
      await first.close();
    }

    // Second run: `a`'s catalog is known, so nothing starts until the first call. The default
    // timeout (a minute) applies: `a` stays up for the rest of the test.
    const second = await ws.start(lazy);
    try {
      const row = second.servers().find((s) => s.name === 'a')!;
      assert.equal(row.state, 'idle');
      assert.equal(row.fromCache, true);
      assert.equal(pidOf(second, 'a'), undefined, 'not started');
      assert.deepEqual(
        (await second.search({ query: 'pong' })).hits.map((h) => h.name),
        ['a_a_ping'],
      );
      const result = await second.callTool('a_a_ping', {});
      assert.match(JSON.stringify(result.content), /pong from a/);
      assert.equal(second.servers().find((s) => s.name === 'a')?.state, 'ready');
    } finally {
      await second.close();
    }
  } finally {
    ws.close();
  }
});

/** tools/list and find_tools's description, as a client connected to a Gateway on `lens` gets them. */
async function listed(lens: LensApp): Promise<{ tools: string; findTools: string }> {
  const { gateway, client } = await connectGatewayClient(lens, 'mcp-lens-test');
  try {
    const { tools } = await client.listTools();
    return { tools: JSON.stringify(tools), findTools: tools.find((t) => t.name === 'find_tools')!.description! };
  } finally {
    await client.close();
    await gateway.close();
  }
}

test("find_tools's description and the whole tools/list are byte-identical across a restart, before and after the servers are up", async () => {
  const ws = workspace({});
  const gate = join(ws.dir, 'gate');
  writeFileSync(gate, 'open');
  writeFileSync(join(ws.dir, 'mcp.json'), JSON.stringify({ servers: { a: gated('a', gate), b: gated('b') } }));
  try {
    const first = await ws.start({}, { waitForServers: true });
    const before = await listed(first);
    await first.close();
    assert.match(before.findTools, /Servers and what their tools cover: a \(.*\), b \(.*\)\./);

    // The restart: `a` cannot come up yet, so the list comes from the catalog it listed last.
    rmSync(gate);
    const second = await ws.start();
    try {
      assert.equal(second.servers().find((s) => s.name === 'a')?.state, 'starting');
      const whileStarting = await listed(second);
      assert.equal(whileStarting.findTools, before.findTools);
      assert.equal(whileStarting.tools, before.tools);
      writeFileSync(gate, 'open');
      await until(second, 'both ready', () => second.servers().every((s) => s.state === 'ready'));
      const afterwards = await listed(second);
      assert.equal(afterwards.findTools, before.findTools);
      assert.equal(afterwards.tools, before.tools);
    } finally {
      await second.close();
    }
  } finally {
    ws.close();
  }
});

test('with startAfter (serve over stdio), the first tools/list is answered from the cached catalog before any server launches or the catalog is indexed; then both happen', async () => {
  const ws = workspace({ a: gated('a'), b: gated('b') });
  try {
    const first = await ws.start({}, { waitForServers: true });
    const before = await listed(first);
    await first.close();

    let startServers!: () => void;
    const startAfter = new Promise<void>((resolve) => (startServers = resolve));
    const second = await ws.start({}, { startAfter });
    const { gateway, client } = await connectGatewayClient(second, 'mcp-lens-test');
    try {
      const { tools } = await client.listTools();
      // The same list as when the servers were up (the cached catalog names their domains)…
      assert.equal(JSON.stringify(tools), before.tools);
      // …answered while no server has a process and nothing is indexed yet.
      assert.deepEqual([pidOf(second, 'a'), pidOf(second, 'b')], [undefined, undefined]);
      assert.equal(second.indexStatus().toolsTotal, 0);
      // The gateway says its client asked (serve opens startAfter on it).
      await gateway.firstAskedForTools();
      const found = client.callTool({ name: 'find_tools', arguments: { query: 'ping a' } });
      startServers();
      const matches = ((await found).structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
      assert.ok(
        matches[0] === 'a_a_ping',
        `find_tools answers from the index built once startAfter settled: ${matches.join(', ')}`,
      );
      await until(
        second,
        'both launched and ready',
        () => second.servers().every((s) => s.state === 'ready') && pidOf(second, 'a') && pidOf(second, 'b'),
      );
    } finally {
      await client.close();
      await gateway.close();
      await second.close();
    }
  } finally {
    ws.close();
  }
});
