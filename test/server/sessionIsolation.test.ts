/**
 * One session's worst cannot reach another's answers (issue #31, items 3 and 4): real SDK
 * clients, two sessions over streamable HTTP on one in-process gateway in front of the real
 * server-everything. Session A runs a busy loop at its largest timeout or a memory bomb (on a
 * worker thread now, not the gateway's), floods selects (evaluators are handed out round robin
 * between sessions), and goes past its limits on calls in flight and on bytes of results
 * waiting for select (an error at once, naming the limit). Session B is answered meanwhile.
 *
 * The Lens the gateway holds is the real one, seen through a proxy that tells the test when a
 * call reaches it and, for the tools a test names, answers with a result the test decides and
 * when it decides: that is how a test knows A's script is running, or A's calls are in flight.
 * Every ordering asserted is between replies; nothing waits for a time to pass.
 */
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Lens } from '../../server/src/app/lens';
import { silentLogger } from '../../server/src/core/logger';
import { SESSION_LIMITS } from '../../server/src/core/sessionLimits';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { EVERYTHING, startLens, type LensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'isolation-' + Math.random().toString(36).slice(2);
/**
 * The busy loop's timeout: long enough that B is answered well within it on the new code, and
 * that the old code, blocked for all of it, fails. The memory bomb gets the largest (120 s), so
 * its memory limit is what stops it however loaded the machine.
 */
const LOOP_TIMEOUT_MS = 15_000;
const MAX_TIMEOUT_MS = 120_000;
/** 2000³ steps, each small: an evaluation only the select deadline ends. */
const chars = "split(pad_left('a', `2000`), '')";
const TIME_BOMB = `length(map(&length(map(&length(map(&@, ${chars})), ${chars})), ${chars}))`;

type CallHook = (name: string) => Promise<CallToolResult> | undefined;

/** The real Lens; `hook` sees every call first and may answer it instead. */
function observed(lens: Lens, hooks: { call?: CallHook | undefined }): Lens {
  return new Proxy(lens, {
    get(target, prop) {
      if (prop === 'callTool') {
        return (name: string, args: Record<string, unknown>, options: unknown) =>
          hooks.call?.(name) ?? target.callTool(name, args, options as Parameters<Lens['callTool']>[2]);
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** A promise with its state readable, to assert what has and has not been answered yet. */
function tracked<T>(p: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const promise = p.finally(() => (settled = true));
  promise.catch(() => undefined);
  return { promise, settled: () => settled };
}

/** A promise and the function that resolves it. */
function gate<T = void>(): { wait: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const wait = new Promise<T>((resolve) => (open = resolve));
  return { wait, open };
}

/** Waits until `n` calls have arrived at the hook (each arrival resolves the next of `arrivals`). */
function arrivals(n: number): { arrived: () => void; all: Promise<void> } {
  let count = 0;
  const done = gate();
  return {
    arrived: () => {
      if (++count === n) done.open();
    },
    all: done.wait,
  };
}

describe('sessions on one gateway: one session cannot hold up another', () => {
  let world: LensWorld;
  let http: GatewayHttpServer;
  let url: string;
  const hooks: { call?: CallHook | undefined } = {};
  let a: Client;
  let b: Client;
  let echo: string;

  async function connect(name: string): Promise<Client> {
    const c = new Client({ name, version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return c;
  }

  const findTools = (c: Client) => c.callTool({ name: 'find_tools', arguments: { query: 'add two numbers' } });
  const runCode = (c: Client, code: string, timeoutMs: number, signal?: AbortSignal) =>
    c.callTool({ name: 'run_code', arguments: { code, timeout_ms: timeoutMs } }, undefined, {
      timeout: 180_000,
      ...(signal && { signal }),
    }) as Promise<CallToolResult>;
  const callTool = (c: Client, args: Record<string, unknown>, signal?: AbortSignal) =>
    c.callTool({ name: 'call_tool', arguments: { tool_name: echo, arguments: { message: 'x' }, ...args } }, undefined, {
      timeout: 180_000,
      ...(signal && { signal }),
    }) as Promise<CallToolResult>;

  before(async () => {
    world = await startLens({ everything: EVERYTHING });
    http = new GatewayHttpServer({
      lens: observed(world.lens, hooks),
      token: TOKEN,
      log: silentLogger,
      sessionIdleMs: 120_000,
    });
    ({ url } = await http.start());
    a = await connect('session-a');
    b = await connect('session-b');
    // Everything listed: find_tools answers from the whole catalog from here on.
    await world.lens.whenServersStarted?.();
    echo = world.lens.tools().find((t) => t.server === 'everything' && t.originalName === 'echo')!.name;
    assert.ok(!(await findTools(b)).isError);
  });

  after(async () => {
    hooks.call = undefined;
    await a?.close();
    await b?.close();
    await http?.close();
    await world?.close();
  });

  it("B's find_tools is answered while A's busy loop runs; A's run then stops at its wall time and the next one runs", async () => {
    const started = gate();
    hooks.call = (name) => (name === echo ? (started.open(), undefined) : undefined);
    const loop = tracked(
      runCode(a, `await call_tool(${JSON.stringify(echo)}, { message: 'start' }); for (;;) {}`, LOOP_TIMEOUT_MS),
    );
    await started.wait;
    hooks.call = undefined;
    const found = await findTools(b);
    assert.ok(!found.isError, text(found));
    assert.equal(loop.settled(), false, "B was answered only once A's script had ended");
    const r = await loop.promise;
    assert.equal(r.isError, true);
    assert.match(
      text(r),
      new RegExp(`run_code failed, wall-time limit: the script ran past its wall-time limit of ${LOOP_TIMEOUT_MS} ms`),
    );
    assert.equal(text(await runCode(a, 'return 1 + 1', 5000)), '2');
  });

  it('a memory bomb is stopped at the memory limit with the limit named; B is answered while it grows', async () => {
    const started = gate();
    hooks.call = (name) => (name === echo ? (started.open(), undefined) : undefined);
    // Slow on purpose: 16 KB at a time with work between, so it grows for a while (seconds).
    const bomb = tracked(
      runCode(
        a,
        `await call_tool(${JSON.stringify(echo)}, { message: 'start' });
         const hoard = [];
         for (let i = 0; ; i++) { hoard.push('x'.repeat(16384) + i); for (let j = 0; j < 2000; j++); }`,
        MAX_TIMEOUT_MS,
      ),
    );
    await started.wait;
    hooks.call = undefined;
    assert.ok(!(await findTools(b)).isError);
    assert.equal(bomb.settled(), false, "B was answered only once A's script had ended");
    const r = await bomb.promise;
    assert.equal(r.isError, true);
    assert.match(text(r), /run_code failed, memory limit: the script went over its memory limit of 64 MB/);
    assert.equal(text(await runCode(a, 'return "after"', 5000)), 'after');
  });

  it("B's select is answered while A's flood of selects waits, each of A's running to the select deadline", async () => {
    const json = (): Promise<CallToolResult> =>
      Promise.resolve({ content: [{ type: 'text', text: '{"a": [1, 2, 3]}' }], structuredContent: { a: [1, 2, 3] } });
    hooks.call = (name) => (name === echo ? json() : undefined);
    // B's first select starts the evaluators, as any earlier select would have.
    assert.equal(text(await callTool(b, { select: 'length(a)' })), '3');
    const sent = SESSION_LIMITS.callsInFlight;
    const reached = arrivals(sent);
    hooks.call = (name) => (name === echo ? (reached.arrived(), json()) : undefined);
    const controller = new AbortController();
    setMaxListeners(sent + 1, controller.signal);
    const flood = Array.from({ length: sent }, () => tracked(callTool(a, { select: TIME_BOMB }, controller.signal)));
    await reached.all;
    // Every one of A's results is waiting for its select by the next turn of the event loop.
    await new Promise((r) => setImmediate(r));
    const mine = await callTool(b, { select: 'a[-1]' });
    const pending = flood.filter((f) => !f.settled()).length;
    controller.abort();
    await Promise.allSettled(flood.map((f) => f.promise));
    hooks.call = undefined;
    assert.equal(text(mine), '3', text(mine));
    assert.ok(pending >= sent - 1, `B's select was answered after ${sent - pending} of A's ${sent} slow selects`);
  });

  it("A's calls past its limit of calls in flight get an error at once that names the limit", async () => {
    const limit = SESSION_LIMITS.callsInFlight;
    const release = gate<CallToolResult>();
    const held = arrivals(limit);
    const extra = arrivals(limit + 1);
    hooks.call = (name) => {
      if (name !== echo) return undefined;
      held.arrived();
      extra.arrived();
      return release.wait;
    };
    const inFlight = Array.from({ length: limit }, () => tracked(callTool(a, {})));
    await held.all;
    const over = await Promise.race([
      callTool(a, {}).then((r) => ({ answered: r })),
      extra.all.then(() => ({ answered: undefined })),
    ]);
    assert.ok(over.answered, `call ${limit + 1} of one session went through to the tool`);
    assert.equal(over.answered.isError, true);
    assert.match(
      text(over.answered),
      new RegExp(`this session already has ${limit} tool calls in flight, the limit for one session`),
    );
    assert.ok(
      inFlight.every((c) => !c.settled()),
      'the others were still in flight',
    );
    // Another session is not counted against A's limit.
    const other = tracked(callTool(b, {}));
    release.open({ content: [{ type: 'text', text: 'done' }] });
    for (const c of [...inFlight, other]) assert.equal(text(await c.promise), 'done');
    hooks.call = undefined;
    assert.equal(text(await callTool(a, { arguments: { message: 'again' } })), 'Echo: again');
  });

  it('a result that would take A past its bytes waiting for select is dropped at once with the limit named', async () => {
    // Each result is 20 MB: the first waits for (or runs) its select; a second cannot be held beside it.
    const big = (): CallToolResult => ({
      content: [{ type: 'text', text: '{}' }],
      structuredContent: { blob: 'x'.repeat(20 * 1024 * 1024) },
    });
    const first = gate<CallToolResult>();
    const second = gate<CallToolResult>();
    const reached = arrivals(2);
    let n = 0;
    hooks.call = (name) => {
      if (name !== echo) return undefined;
      reached.arrived();
      return (n++ === 0 ? first : second).wait;
    };
    const controller = new AbortController();
    const one = tracked(callTool(a, { select: TIME_BOMB }, controller.signal));
    const two = callTool(a, { select: 'length(blob)' });
    await reached.all;
    first.open(big());
    second.open(big());
    const r = await two;
    const firstPending = !one.settled();
    controller.abort();
    await one.promise.catch(() => undefined);
    hooks.call = undefined;
    assert.equal(r.isError, true, text(r).slice(0, 300));
    assert.match(
      text(r),
      /select was not applied and the result of everything_echo \(20\.0 MB\) was dropped: this session's results already waiting for select hold 20\.0 MB, and a session may hold at most 32\.0 MB of results waiting for select/,
    );
    assert.ok(firstPending, 'the first was still waiting for its select');
  });
});
