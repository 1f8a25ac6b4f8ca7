/**
 * An upstream HTTP or SSE server that streamed a body without end grew the gateway past 1 GB in
 * seconds (issue #23): the SDK reads a JSON reply or an SSE event whole before parsing it, and
 * the 10 MB result limit came after. Bodies are now counted while they stream
 * (adapters/upstream/boundedFetch.ts): a reply or an event past 10 MB is cut off; the call fails
 * with an error naming the server and the limit, the server is restarted as after any broken
 * connection, and the gateway's memory stays bounded. (The event stream's rate budget, 100 MB
 * in 10 s, depends on how fast the gateway reads: test/unit/eventStreamBudget.test.ts checks it
 * on a clock of its own.)
 *
 * The real CLI (`serve --http`) with two servers on 127.0.0.1 that flood (streamable HTTP and
 * legacy SSE; test/fixtures/servers/floodHttp.ts). Each flood stops by itself after 512 MB, so
 * against a gateway without the limit the test ends too (and fails on the memory bound).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFloodServer, type FloodServer } from '../fixtures/servers/floodHttp';
import { text } from '../faults/faultWorld';
import {
  hostileWorkspace,
  killStarted,
  mcpJson,
  serveHttp,
  type HostileWorkspace,
  type ServedGateway,
} from './hostileWorkspace';

/** Growth of the gateway's RSS a flood may cause: a 10 MB message read a few times over, not the 512 MB sent. */
const MAX_GROWTH_MB = 160;

let streamable: FloodServer;
let sse: FloodServer;
let ws: HostileWorkspace;
let g: ServedGateway;
let client: Client;
before(async () => {
  streamable = await startFloodServer('streamable');
  sse = await startFloodServer('sse');
  ws = hostileWorkspace({
    '.vscode/mcp.json': mcpJson({ web: { type: 'http', url: streamable.url }, old: { type: 'sse', url: sse.url } }),
  });
  g = await serveHttp(ws, {}, ['web', 'old']);
  client = await g.connect();
});
after(async () => {
  await g?.close().catch(() => killStarted());
  await Promise.all([streamable?.close(), sse?.close()]);
  ws?.close();
});

/** Resident set of the gateway process, from /proc (it is a child of this test). */
function gatewayRssMb(): number {
  const status = readFileSync(`/proc/${g.serve.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Calls a flooding tool while sampling the gateway's RSS; the result and the peak growth. */
async function floodCall(tool: string): Promise<{ result: CallToolResult; growthMb: number }> {
  const before = gatewayRssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, gatewayRssMb())), 20);
  try {
    const result = (await client.callTool(
      { name: 'call_tool', arguments: { tool_name: tool, arguments: {} } },
      undefined,
      {
        timeout: 120_000,
      },
    )) as CallToolResult;
    return { result, growthMb: Math.max(peak, gatewayRssMb()) - before };
  } finally {
    clearInterval(sampler);
  }
}

/** The server comes back: its restart logged it ready again, and ping answers. */
async function restarted(server: string, readyLines: number): Promise<void> {
  await g.serve.waitFor(new RegExp(`(\\[${server}\\] ready: \\d+ tools[^]*){${readyLines}}`));
  const pong = (await client.callTool({
    name: 'call_tool',
    arguments: { tool_name: `${server}_ping`, arguments: {} },
  })) as CallToolResult;
  assert.equal(text(pong), 'pong');
}

const cases: [string, string, string, RegExp][] = [
  [
    'a streamable HTTP reply (JSON) that never ends',
    'web',
    'web_flood_json',
    /sent a reply of more than 10 MB, the limit for one message/,
  ],
  [
    'a streamable HTTP event that never ends',
    'web',
    'web_flood_event',
    /sent an event of more than 10 MB, the limit for one message/,
  ],
  [
    'an SSE event that never ends',
    'old',
    'old_flood_event',
    /sent an event of more than 10 MB, the limit for one message/,
  ],
];

let ready = { web: 1, old: 1 } as Record<string, number>;
for (const [name, server, tool, limit] of cases) {
  test(`${name}: the call fails naming the server and the limit, memory stays bounded, the server restarts`, async (t) => {
    const { result, growthMb } = await floodCall(tool);
    t.diagnostic(`${tool}: the gateway grew by ${Math.round(growthMb)} MB`);
    assert.equal(result.isError, true, text(result).slice(0, 300));
    assert.match(text(result), new RegExp(`Server "${server}" stopped during the call`));
    assert.match(text(result), limit);
    assert.ok(growthMb < MAX_GROWTH_MB, `the gateway grew by ${Math.round(growthMb)} MB while ${server} flooded it`);
    await g.serve.waitFor(new RegExp(`\\[${server}\\] ${limit.source}`));
    ready = { ...ready, [server]: ready[server]! + 1 };
    await restarted(server, ready[server]!);
  });
}
