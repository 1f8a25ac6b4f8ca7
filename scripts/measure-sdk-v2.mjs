// What moving MCP Lens's MCP server and upstream client from the TypeScript SDK 1.x to the split
// v2 packages (@modelcontextprotocol/server, client, core) would cost, measured on this machine:
// the bundle (what the gateway and the upstream client import of each, minified by the repo's
// esbuild, and gzipped), the time to load it, the CPU of one tools/call through a Server and a
// Client in one process (1.x; v2 in the 2025 era; v2 in 2026-07-28), and the server's CPU per
// tools/call over HTTP (1.x sessionful streamable HTTP; v2 createMcpHandler, 2026-07-28).
// Both SDKs come from node_modules (v2 is a devDependency, for the tests' 2026-07-28 client).
//
// Usage: node scripts/measure-sdk-v2.mjs [--calls N]   (prints a markdown table; the decision and
// the figures are in ARCHITECTURE.md and bench-results.md)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const calls = Number(process.argv[process.argv.indexOf('--calls') + 1]) || 3000;
const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-sdk-v2-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const ENTRIES = {
  '1.x': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
globalThis.keep = [Server, StreamableHTTPServerTransport, StdioServerTransport, Client, StreamableHTTPClientTransport, StdioClientTransport, CallToolRequestSchema];`,
  v2: `import { Server, createMcpHandler, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
globalThis.keep = [Server, createMcpHandler, WebStandardStreamableHTTPServerTransport, serveStdio, Client, StreamableHTTPClientTransport, StdioClientTransport];`,
};

const IN_PROCESS = {
  '1.x': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (r) => ({ content: [{ type: 'text', text: JSON.stringify(r.params.arguments) }] }));
const [a, b] = InMemoryTransport.createLinkedPair();
await server.connect(a);
const client = new Client({ name: 'c', version: '1' });
await client.connect(b);`,
  v2: (era) => `import { Server, InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Client } from '@modelcontextprotocol/client';
const factory = () => {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async (r) => ({ content: [{ type: 'text', text: JSON.stringify(r.params.arguments) }] }));
  return server;
};
const [a, b] = InMemoryTransport.createLinkedPair();
serveStdio(factory, { transport: a });
const client = new Client({ name: 'c', version: '1' }, ${era === 'modern' ? "{ versionNegotiation: { mode: { pin: '2026-07-28' } } }" : '{}'});
await client.connect(b);`,
};

const CALL_LOOP = `
for (let i = 0; i < 300; i++) await client.callTool({ name: 'echo', arguments: { i } });
const cpu = process.cpuUsage();
for (let i = 0; i < ${calls}; i++) await client.callTool({ name: 'echo', arguments: { i, s: 'hello world' } });
const used = process.cpuUsage(cpu);
process.stdout.write(String((used.user + used.system) / ${calls}));
process.exit(0);`;

function runFile(name, source) {
  const file = join(root, 'node_modules', '.cache', `sdk-v2-${name}.mjs`);
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', cwd: root });
  rmSync(file, { force: true });
  if (r.status !== 0) throw new Error(`${name}: ${r.stderr.slice(-800)}`);
  return Number(r.stdout.trim());
}

async function bundle(name, source) {
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(entry, source);
  const out = join(dir, `${name}.cjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    minify: true,
    outfile: out,
    logLevel: 'error',
    nodePaths: [join(root, 'node_modules')],
  });
  const bytes = statSync(out).size;
  const gz = gzipSync(readFileSync(out)).length;
  const loads = [];
  for (let i = 0; i < 7; i++) {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const t=process.hrtime.bigint();require(${JSON.stringify(out)});console.log(Number(process.hrtime.bigint()-t)/1e6)`,
      ],
      { encoding: 'utf8' },
    );
    loads.push(Number(r.stdout.trim()));
  }
  return { bytes, gz, loadMs: median(loads) };
}

/** Server CPU per tools/call over HTTP, the server in its own process. */
async function httpCpu(kind) {
  const serverFile = join(root, 'node_modules', '.cache', `sdk-v2-http-${kind}.mjs`);
  writeFileSync(serverFile, httpServerSource(kind));
  const child = spawn(process.execPath, [serverFile], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((r) => child.stdout.once('data', (d) => r(Number(String(d).trim()))));
  const url = `http://127.0.0.1:${port}/mcp`;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  let session;
  const post = async (method, params, id) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (kind === 'v2')
      Object.assign(headers, {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(params.name && { 'mcp-name': params.name }),
      });
    else if (session) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const body = { jsonrpc: '2.0', id, method, params: kind === 'v2' ? { ...params, _meta: meta } : params };
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    session ??= res.headers.get('mcp-session-id') ?? undefined;
    return res.text();
  };
  if (kind === '1.x')
    await post(
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      0,
    );
  for (let i = 0; i < 200; i++) await post('tools/call', { name: 'echo', arguments: { i } }, i + 1);
  const cpu = async () => Number(await (await fetch(`http://127.0.0.1:${port}/cpu`)).text());
  const before = await cpu();
  for (let i = 0; i < calls; i++) await post('tools/call', { name: 'echo', arguments: { i } }, i + 1000);
  const perCall = ((await cpu()) - before) / calls;
  child.kill();
  rmSync(serverFile, { force: true });
  return perCall;
}

function httpServerSource(kind) {
  const handler =
    kind === 'v2'
      ? `const { Server, createMcpHandler } = await import('@modelcontextprotocol/server');
const mcp = createMcpHandler(() => { const s = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } }); s.setRequestHandler('tools/call', async (r) => ({ content: [{ type: 'text', text: JSON.stringify(r.params.arguments) }] })); return s; }, { legacy: 'reject' });
const handle = async (req, res, body) => { const r = await mcp.fetch(new Request('http://127.0.0.1' + req.url, { method: req.method, headers: req.headers, body })); res.writeHead(r.status, Object.fromEntries(r.headers)); res.end(Buffer.from(await r.arrayBuffer())); };`
      : `const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { CallToolRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
const sessions = new Map();
const handle = async (req, res, body) => { let t = sessions.get(req.headers['mcp-session-id']); if (!t) { const s = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } }); s.setRequestHandler(CallToolRequestSchema, async (r) => ({ content: [{ type: 'text', text: JSON.stringify(r.params.arguments) }] })); t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), enableJsonResponse: true, onsessioninitialized: (id) => sessions.set(id, t) }); await s.connect(t); } await t.handleRequest(req, res, JSON.parse(body)); };`;
  return `import { createServer } from 'node:http';
${handler}
const http = createServer(async (req, res) => {
  if (req.url === '/cpu') { const c = process.cpuUsage(); return res.end(String(c.user + c.system)); }
  const chunks = []; for await (const c of req) chunks.push(c);
  await handle(req, res, Buffer.concat(chunks).toString());
});
http.listen(0, '127.0.0.1', () => process.stdout.write(String(http.address().port) + '\\n'));`;
}

const sizes = { '1.x': await bundle('v1', ENTRIES['1.x']), v2: await bundle('v2', ENTRIES.v2) };
const inProcess = {
  '1.x': runFile('call-v1', IN_PROCESS['1.x'] + CALL_LOOP),
  'v2, 2025 era': runFile('call-v2-legacy', IN_PROCESS.v2('legacy') + CALL_LOOP),
  'v2, 2026-07-28': runFile('call-v2-modern', IN_PROCESS.v2('modern') + CALL_LOOP),
};
const http = { '1.x (sessions)': await httpCpu('1.x'), 'v2 createMcpHandler (2026-07-28)': await httpCpu('v2') };
rmSync(dir, { recursive: true, force: true });

const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
const us = (n) => `${n.toFixed(0)} µs`;
process.stdout.write(
  [
    `SDK 1.x vs v2 (node scripts/measure-sdk-v2.mjs --calls ${calls}; load ${loadavg()[0].toFixed(1)})`,
    '',
    '| measure | SDK 1.x | SDK v2 |',
    '|---|---:|---:|',
    `| server + client bundle, minified | ${kb(sizes['1.x'].bytes)} | ${kb(sizes.v2.bytes)} |`,
    `| same, gzipped | ${kb(sizes['1.x'].gz)} | ${kb(sizes.v2.gz)} |`,
    `| load (require), median of 7 | ${sizes['1.x'].loadMs.toFixed(0)} ms | ${sizes.v2.loadMs.toFixed(0)} ms |`,
    `| CPU per tools/call, Server + Client in one process | ${us(inProcess['1.x'])} | ${us(inProcess['v2, 2025 era'])} (2025 era), ${us(inProcess['v2, 2026-07-28'])} (2026-07-28) |`,
    `| server CPU per tools/call over HTTP | ${us(http['1.x (sessions)'])} (sessions) | ${us(http['v2 createMcpHandler (2026-07-28)'])} (createMcpHandler, 2026-07-28) |`,
    '',
  ].join('\n'),
);
