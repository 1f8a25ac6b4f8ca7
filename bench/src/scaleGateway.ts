/**
 * The gateway at organisation scale, as a real process: `dist/cli.js serve` over stdio, the way
 * an MCP client runs it, on a workspace whose config declares every server of an org catalog
 * (orgCatalog.ts). Servers start lazily (`mcpLens.startup: "lazy"`) and their tools come from
 * the catalog cache, as they do on every start after the first: thousands of upstream processes
 * are not what is measured, the gateway holding and searching their tools is. The cache is
 * written where the CLI keeps it, keyed by each definition's fingerprint as the CLI computes
 * it, so the gateway answers from it without starting anything (it would say so: a server it
 * started runs a command that exits at once and lists nothing).
 *
 * Measured: the time from spawning the process to the first find_tools answer that holds the
 * catalog's last tool, find_tools answered over stdio for every scale query (the client's wall
 * time: JSON-RPC both ways and the answer's shaping included), and the process's RSS from
 * /proc (VmRSS after the searches, VmHWM its peak).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sanitizeSettings } from '../../protocol/settings';
import { writeCatalogCache, type CatalogCacheFile } from '../../server/src/adapters/catalogCacheFile';
import { loadWorkspaceConfig } from '../../server/src/adapters/config/loadConfig';
import { ensureWorkspaceStateDir } from '../../server/src/adapters/workspaceState';
import { latency, type LatencyFigures } from './scaleKeyword';
import type { RawTool } from './orgCatalog';
import type { ScaleQuery } from './scaleQueries';

export interface GatewayScaleFigures {
  /** Spawn to the first find_tools answer over the whole catalog, ms. */
  ready_ms: number;
  /** The first find_tools call alone (the client's wall time), ms: what the first agent waits for once connected. */
  first_find_tools_ms: number;
  /** The gateway's CPU time (user + system, from /proc) from spawn to the end of the searches, ms. */
  cpu_ms: number;
  /** find_tools over stdio, one call each, ms. */
  find_tools_ms: LatencyFigures;
  /** VmRSS after the searches, MB. */
  rss_mb: number;
  /** VmHWM: the process's peak RSS, MB. */
  peak_rss_mb: number;
}

/** Settings of the measured workspace: the org's servers start on their first call; keyword search only. */
const SETTINGS = { 'mcpLens.startup': 'lazy', 'mcpLens.embedding.enabled': false };
const READY_TIMEOUT_MS = 10 * 60_000;

/** `nodeArgs`: for the gateway's node (e.g. `--cpu-prof`, to see where its time goes). */
export async function gatewayAtScale(
  catalog: readonly RawTool[],
  queries: readonly ScaleQuery[],
  cli: string,
  nodeArgs: readonly string[] = [],
): Promise<GatewayScaleFigures> {
  const work = mkdtempSync(join(tmpdir(), 'mcp-lens-scale-'));
  try {
    const { workspace, config, env } = writeScaleWorkspace(work, catalog);
    const start = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgs, cli, 'serve', '--workspace', workspace, '--config', config],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const client = new Client({ name: 'mcp-lens-scale-bench', version: '1.0.0' });
    try {
      // The gateway answers `initialize` once its start-up has run, index build included.
      await client.connect(transport, { timeout: READY_TIMEOUT_MS });
      const last = catalog[catalog.length - 1]!;
      const firstMs = await untilFound(client, last);
      const readyMs = performance.now() - start;
      const times: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        const result = await client.callTool({ name: 'find_tools', arguments: { query: q.query } });
        times.push(performance.now() - t);
        if (result.isError) throw new Error(`find_tools failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      }
      const status = procStatus(transport.pid);
      return {
        ready_ms: Math.round(readyMs),
        first_find_tools_ms: Math.round(firstMs),
        cpu_ms: cpuMs(transport.pid),
        find_tools_ms: latency(times),
        rss_mb: status.VmRSS,
        peak_rss_mb: status.VmHWM,
      };
    } catch (err) {
      throw new Error(`gateway at ${catalog.length} tools: ${(err as Error).message}\n${stderr}`);
    } finally {
      await client.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The workspace (in `work`), its config and settings, and the catalog cache where `serve` will look for it. */
export function writeScaleWorkspace(
  work: string,
  catalog: readonly RawTool[],
): { workspace: string; config: string; env: Record<string, string> } {
  const workspace = join(work, 'workspace');
  const home = join(work, 'home');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify(SETTINGS));
  const servers = new Map<string, RawTool[]>();
  for (const t of catalog) {
    const list = servers.get(t.server);
    if (list) list.push(t);
    else servers.set(t.server, [t]);
  }
  // Never run (the cache has every server's tools); if one were, it would exit at once.
  const definition = { command: process.execPath, args: ['-e', 'process.exit(1)'] };
  const config = join(workspace, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({ servers: Object.fromEntries([...servers.keys()].map((name) => [name, definition])) }),
  );
  const env: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
    HOME: home,
    XDG_STATE_HOME: join(work, 'state'),
    XDG_CONFIG_HOME: join(work, 'config'),
  };
  const loaded = loadWorkspaceConfig({
    workspaceFolder: workspace,
    settings: sanitizeSettings({ startup: 'lazy' }),
    configFile: config,
    env,
    userHome: home,
  });
  if (loaded.servers.length !== servers.size) {
    const problems = loaded.problems.slice(0, 3).map((p) => p.message);
    throw new Error(`the config declares ${loaded.servers.length} of ${servers.size} servers (${problems.join('; ')})`);
  }
  const cache: CatalogCacheFile = { version: 2, servers: {} };
  const listedAt = Date.now();
  for (const s of loaded.servers) {
    cache.servers[s.name] = {
      fingerprint: s.fingerprint,
      listedAt,
      tools: servers.get(s.name)!.map((t) => ({ ...t })),
    };
  }
  writeCatalogCache(join(ensureWorkspaceStateDir(workspace, env, home), 'catalog.json'), cache);
  return { workspace, config, env };
}

/** Polls find_tools (by the tool's own name, on its server) until the gateway's index holds `tool`; the first call's ms. */
async function untilFound(client: Client, tool: RawTool): Promise<number> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  let firstMs: number | undefined;
  while (performance.now() < deadline) {
    const t = performance.now();
    const result = await client.callTool(
      { name: 'find_tools', arguments: { query: tool.name, server: tool.server } },
      undefined,
      {
        timeout: READY_TIMEOUT_MS,
      },
    );
    firstMs ??= performance.now() - t;
    const matches = (result.structuredContent as { matches?: { server: string }[] } | undefined)?.matches ?? [];
    if (matches.some((m) => m.server === tool.server)) return firstMs;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `the catalog's last tool (${tool.server}/${tool.name}) was not searchable within ${READY_TIMEOUT_MS / 1000} s`,
  );
}

/** User + system CPU time of a process so far, ms (/proc/PID/stat fields 14 and 15, in clock ticks of 10 ms). */
function cpuMs(pid: number | null): number {
  if (pid === null) return 0;
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** VmRSS and VmHWM of a process, in MB. */
function procStatus(pid: number | null): { VmRSS: number; VmHWM: number } {
  const out = { VmRSS: 0, VmHWM: 0 };
  if (pid === null) return out;
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(VmRSS|VmHWM):\s+(\d+)/.exec(line);
    if (m) out[m[1] as 'VmRSS' | 'VmHWM'] = Math.round(Number(m[2]) / 1024);
  }
  return out;
}
