/**
 * One `select` argument took the gateway down (issue #23). A JMESPath expression whose functions
 * build a huge value (`pad_left` with a width of 6·10^7 over every letter of a reply, joined) ran
 * on the gateway's thread without bounds: the process ran out of memory, and every session and
 * upstream with it. An expression that does 2000³ small steps blocked every other client for
 * minutes. select now runs in a child process with a heap limit and a deadline: the agent gets
 * an error naming the limit, and the gateway serves other sessions meanwhile and after.
 *
 * The real CLI (`serve --http`) on a workspace with server-everything, whose
 * get-structured-content replies with JSON; its heap is capped at 512 MB as a small machine
 * would cap it (NODE_OPTIONS), so the old failure shows as a crash in seconds, not gigabytes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SELECT_LIMITS } from '../../server/src/core/resultShaping';
import { text } from '../faults/faultWorld';
import { EVERYTHING, hostileWorkspace, killStarted, mcpJson, serveHttp, type ServedGateway } from './hostileWorkspace';

/** One 60 MB string per character of "Light rain / drizzle": 1.2 GB, built by a 60-character argument. */
const MEMORY_BOMB = "map(&join('', [pad_left(@, `60000000`), @]), split(conditions, ''))";
/** 2000³ steps, each tiny: minutes of work in almost no memory. */
const chars = "split(pad_left('a', `2000`), '')";
const TIME_BOMB = `length(map(&length(map(&length(map(&@, ${chars})), ${chars})), ${chars}))`;
const TOOL = 'everything_get-structured-content';

const ws = hostileWorkspace({ '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }) });
let g: ServedGateway;
let attacker: Client;
let other: Client;
before(async () => {
  g = await serveHttp(ws, { NODE_OPTIONS: '--max-old-space-size=512' }, ['everything']);
  attacker = await g.connect();
  other = await g.connect();
});
after(async () => {
  await g?.close().catch(() => killStarted());
  ws.close();
});

function selectCall(select: string): Promise<CallToolResult> {
  const args = { tool_name: TOOL, arguments: { location: 'Chicago' }, select };
  // A generous deadline: the old gateway never answered (it crashed or blocked for minutes).
  return attacker.callTool({ name: 'call_tool', arguments: args }, undefined, {
    timeout: 90_000,
  }) as Promise<CallToolResult>;
}

/** find_tools from the other session, over and over until `pending` settles; how many were answered meanwhile. */
async function serveOtherWhile(pending: Promise<unknown>): Promise<number> {
  let settled = false;
  void pending.finally(() => (settled = true)).catch(() => undefined);
  let answered = 0;
  while (!settled) {
    const r = (await other.callTool({ name: 'find_tools', arguments: { query: 'add two numbers' } }, undefined, {
      timeout: 30_000,
    })) as CallToolResult;
    assert.ok(!r.isError, text(r));
    if (!settled) answered++;
  }
  return answered;
}

async function stillServing(): Promise<void> {
  assert.equal(g.serve.child.exitCode, null, `the gateway exited:\n${g.serve.stderr()}`);
  const ok = (await other.callTool({
    name: 'call_tool',
    arguments: { tool_name: TOOL, arguments: { location: 'Chicago' }, select: 'conditions' },
  })) as CallToolResult;
  assert.equal(text(ok), '"Light rain / drizzle"');
}

test('a select that builds more than the memory limit is stopped with the limit named; the gateway goes on', async () => {
  const bomb = selectCall(MEMORY_BOMB);
  await serveOtherWhile(bomb);
  const r = await bomb;
  assert.equal(r.isError, true, text(r));
  assert.match(
    text(r),
    new RegExp(`select stopped: it needed more than ${SELECT_LIMITS.memoryMb} MB of memory, the limit for one select`),
  );
  assert.match(
    text(r),
    /The call to everything_get-structured-content itself succeeded; its whole result is kept for this session as mcp-lens:\/\/results\//,
  );
  await stillServing();
});

test('a select that would run for minutes is stopped at the deadline, and other sessions are served meanwhile', async () => {
  const bomb = selectCall(TIME_BOMB);
  const answered = await serveOtherWhile(bomb);
  const r = await bomb;
  assert.equal(r.isError, true, text(r));
  assert.match(
    text(r),
    new RegExp(`select stopped: it ran longer than ${SELECT_LIMITS.deadlineMs / 1000} s, the limit for one select`),
  );
  assert.ok(answered > 0, 'no find_tools of the other session was answered while the select ran');
  await stillServing();
});

test('run_code gets the same bounds for its call_tool(..., { select })', async () => {
  const code = `try { await call_tool(${JSON.stringify(TOOL)}, { location: 'Chicago' }, { select: ${JSON.stringify(MEMORY_BOMB)} }); return 'no error'; } catch (e) { return String(e); }`;
  const r = (await attacker.callTool({ name: 'run_code', arguments: { code } }, undefined, {
    timeout: 90_000,
  })) as CallToolResult;
  assert.match(text(r), /needed more than \d+ MB of memory, the limit for one select/);
  await stillServing();
});
