/**
 * What routing a call through MCP Lens costs: the same `get-sum` call on server-everything,
 * directly (client → server over stdio) and through the gateway (client → `mcp-lens serve`
 * over stdio → server over stdio), interleaved in one run so both see the same machine load.
 * Then 200 concurrent call_tool across three upstreams, counting errors.
 *
 *   node --import tsx server/src/bench/gatewayOverhead.ts [--iterations N] [--json]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface OverheadReport {
  iterations: number;
  directMedianMs: number;
  gatewayMedianMs: number;
  overheadMedianMs: number;
  directP90Ms: number;
  gatewayP90Ms: number;
  concurrent: { calls: number; errors: number; wallMs: number; servers: string[] };
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round((s[i] ?? 0) * 1000) / 1000;
}

async function connect(command: string, args: string[], cwd: string): Promise<Client> {
  const client = new Client({ name: 'mcp-lens-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, cwd, stderr: 'ignore' }));
  return client;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function measureGatewayOverhead(root: string, iterations = 200): Promise<OverheadReport> {
  const nm = join(root, 'node_modules/@modelcontextprotocol');
  const everything = [join(nm, 'server-everything/dist/index.js'), 'stdio'];
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-overhead-'));
  const config = join(ws, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        everything: { command: process.execPath, args: everything },
        memory: { command: process.execPath, args: [join(nm, 'server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(ws, 'memory.jsonl') } },
        files: { command: process.execPath, args: [join(nm, 'server-filesystem/dist/index.js'), ws] },
      },
    }),
  );
  writeFileSync(join(ws, 'note.txt'), 'hello');
  const direct = await connect(process.execPath, everything, root);
  const gateway = await connect(
    process.execPath,
    ['--import', 'tsx', join(root, 'server/src/cli/main.ts'), 'serve', '--workspace', ws, '--config', config],
    root,
  );
  try {
    const tools = (await gateway.callTool({
      name: 'find_tools',
      arguments: { query: 'sum of two numbers', server: 'everything', limit: 3 },
    })) as CallToolResult;
    const sumName = (tools.structuredContent as { matches: { name: string }[] }).matches.find((m) => /sum/.test(m.name))?.name;
    if (!sumName) throw new Error('find_tools did not return the get-sum tool');
    const names = await toolNamesByServer(gateway);
    const directTimes: number[] = [];
    const gatewayTimes: number[] = [];
    for (let i = 0; i < iterations + 10; i++) {
      const d = await timed(() => direct.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }));
      const g = await timed(() => gateway.callTool({ name: 'call_tool', arguments: { tool_name: sumName, arguments: { a: i, b: 1 } } }));
      if (i >= 10) {
        directTimes.push(d);
        gatewayTimes.push(g);
      }
    }
    const concurrent = await concurrentCalls(gateway, sumName, names, ws);
    const dm = percentile(directTimes, 50);
    const gm = percentile(gatewayTimes, 50);
    return {
      iterations,
      directMedianMs: dm,
      gatewayMedianMs: gm,
      overheadMedianMs: Math.round((gm - dm) * 1000) / 1000,
      directP90Ms: percentile(directTimes, 90),
      gatewayP90Ms: percentile(gatewayTimes, 90),
      concurrent,
    };
  } finally {
    await direct.close();
    await gateway.close();
    rmSync(ws, { recursive: true, force: true });
  }
}

async function toolNamesByServer(gateway: Client): Promise<{ readGraph: string; listDir: string }> {
  const pick = async (query: string, server: string, re: RegExp) => {
    const r = (await gateway.callTool({ name: 'find_tools', arguments: { query, server, limit: 10 } })) as CallToolResult;
    const name = (r.structuredContent as { matches: { name: string }[] }).matches.find((m) => re.test(m.name))?.name;
    if (!name) throw new Error(`no ${re} tool on ${server}`);
    return name;
  };
  return {
    readGraph: await pick('read the knowledge graph', 'memory', /read_graph/),
    listDir: await pick('list directory contents', 'files', /list_directory$/),
  };
}

async function concurrentCalls(
  gateway: Client,
  sumName: string,
  names: { readGraph: string; listDir: string },
  ws: string,
): Promise<OverheadReport['concurrent']> {
  const calls = Array.from({ length: 200 }, (_, i) => {
    const which = i % 3;
    const args =
      which === 0
        ? { tool_name: sumName, arguments: { a: i, b: 2 } }
        : which === 1
          ? { tool_name: names.readGraph, arguments: {} }
          : { tool_name: names.listDir, arguments: { path: ws } };
    return args;
  });
  const started = performance.now();
  const results = await Promise.allSettled(calls.map((args) => gateway.callTool({ name: 'call_tool', arguments: args })));
  const errors = results.filter((r) => r.status === 'rejected' || (r.value as CallToolResult).isError).length;
  return { calls: calls.length, errors, wallMs: Math.round(performance.now() - started), servers: ['everything', 'memory', 'files'] };
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf('--iterations');
  const iterations = i >= 0 ? Number(argv[i + 1]) : 200;
  measureGatewayOverhead(resolve(__dirname, '../../..'), iterations).then(
    (r) => process.stdout.write((argv.includes('--json') ? JSON.stringify(r, null, 2) : formatOverhead(r)) + '\n'),
    (err: unknown) => {
      process.stderr.write(`gateway overhead bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

export function formatOverhead(r: OverheadReport): string {
  return [
    `get-sum on server-everything, ${r.iterations} calls each, interleaved:`,
    `  direct           median ${r.directMedianMs} ms   p90 ${r.directP90Ms} ms`,
    `  via MCP Lens     median ${r.gatewayMedianMs} ms   p90 ${r.gatewayP90Ms} ms`,
    `  overhead         median ${r.overheadMedianMs} ms`,
    `${r.concurrent.calls} concurrent call_tool across ${r.concurrent.servers.join(', ')}: ${r.concurrent.errors} errors, ${r.concurrent.wallMs} ms wall`,
  ].join('\n');
}
