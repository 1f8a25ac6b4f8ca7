// `npm run team:demo`: MCP Lens for a team on one machine, in one command. A PostgreSQL 15
// cluster (temp folder, 127.0.0.1, a free port), two replicas of `mcp-lens serve --http` on it
// and on the 22-server dev workspace (the recorded workspace's 19 servers replayed, plus
// server-everything, -filesystem and -memory: bench/src/benchServers.ts), and HAProxy in front
// (bench/src/infra/haproxy.ts: sessions stick to their replica by Mcp-Session-Id). Prints
// the address and the token; Ctrl+C stops everything and removes the temp folders.
//   --replicas N   how many replicas (default 2)
//   --check        connect through the load balancer, run find_tools and call_tool, and stop
// Run with `node --import tsx` (npm run team:demo does): it reuses the TypeScript of bench/src/infra.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchServers, configServers } from '../bench/src/benchServers.ts';
import { startPostgres } from '../bench/src/infra/postgres.ts';
import { startHaproxy } from '../bench/src/infra/haproxy.ts';
import { callTool, connectClient, startReplica, textOf } from '../bench/src/infra/replicas.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--replicas');
const count = at >= 0 ? Number(args[at + 1]) : 2;
if (!Number.isInteger(count) || count < 1 || count > 8) throw new Error('--replicas takes 1 to 8');
const check = args.includes('--check');

const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-team-demo-'));
const workspace = join(dir, 'workspace');
mkdirSync(join(workspace, '.vscode'), { recursive: true });
writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'mcpLens.embedding.enabled': false }));
const config = join(workspace, 'mcp.json');
// Naming the config file (--config) approves its servers: the demo's own.
writeFileSync(config, JSON.stringify({ servers: configServers(benchServers(dir)) }, null, 2));
const token = process.env.MCP_LENS_TOKEN ?? randomBytes(24).toString('hex');
const stateKey = randomBytes(32).toString('hex');

const started = [];
async function stopAll() {
  for (const s of started.reverse()) await s.stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}

try {
  const pg = await startPostgres();
  started.push(pg);
  const url = await pg.createDatabase('mcp_lens');
  const replicas = [];
  for (let i = 1; i <= count; i++) {
    const r = await startReplica({
      id: `replica-${i}`,
      workspace,
      token,
      stateUrl: url,
      args: ['--config', config],
      env: { MCP_LENS_STATE_KEY: stateKey, MCP_LENS_LOG: 'warn' },
    });
    replicas.push(r);
    started.push(r);
  }
  const lb = await startHaproxy(replicas.map((r) => r.port));
  started.push(lb);
  process.stderr.write(
    [
      `PostgreSQL: ${url}`,
      ...replicas.map((r) => `${r.id}: ${r.url}`),
      `HAProxy:    ${lb.url}   (config: ${lb.config})`,
      `Token:      ${process.env.MCP_LENS_TOKEN ? 'the value of MCP_LENS_TOKEN' : token}`,
      '',
      `claude mcp add --transport http mcp-lens-team ${lb.url} --header "Authorization: Bearer <token>"`,
      '',
    ].join('\n'),
  );
  if (check) {
    const client = await connectClient(lb.url, token, 'team-demo-check');
    const found = await client.callTool({ name: 'find_tools', arguments: { query: 'add two numbers' } });
    const top = JSON.parse(textOf(found)).matches[0];
    process.stderr.write(`find_tools "add two numbers": ${top.name} (${top.server})\n`);
    const sum = await callTool(client, top.name, { a: 2, b: 3 });
    process.stderr.write(`call_tool ${top.name}(2, 3): ${textOf(sum)}\n`);
    await client.close();
  } else {
    process.stderr.write('Press Ctrl+C to stop.\n');
    await new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  }
} finally {
  await stopAll();
}
