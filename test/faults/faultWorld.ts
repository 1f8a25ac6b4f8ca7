/**
 * The fault suite's world: a real LensApp over server-everything plus misbehaving fixture
 * servers, served by the real GatewayHttpServer on 127.0.0.1 and driven by a real MCP SDK
 * client. `healthy()` is the check every fault test ends with: the gateway and the healthy
 * upstream go on (find_tools finds get-sum, call_tool adds).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sanitizeSettings, type McpLensSettings, type RawServerEntry } from '../../protocol/settings';
import { LensApp } from '../../server/src/app/lensApp';
import { lineLogger, silentLogger, type Logger } from '../../server/src/core/logger';
import { createDashboardRoutes } from '../../server/src/gateway/dashboard/routes';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { WORKSPACE_PRINCIPAL } from '../../server/src/core/principal';
import { ROOT, makeWorkspace, startLens, type LensWorld, type TestWorkspace } from '../fixtures/gatewayLens';

export const FAULTY = join(ROOT, 'test/fixtures/servers/faulty/faulty.mjs');
const SERVERS = join(ROOT, 'test/fixtures/servers');

/** The faulty fixture in one of its modes (see faulty.mjs). */
export function faulty(mode: string): RawServerEntry {
  return { type: 'stdio', command: process.execPath, args: [FAULTY, '--mode', mode] };
}

/** One of the older fixture scripts in test/fixtures/servers. */
export function fixtureServer(file: string, ...args: string[]): RawServerEntry {
  return { type: 'stdio', command: process.execPath, args: [join(SERVERS, file), ...args] };
}

export function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export interface ServerEntry {
  name: string;
  state: string;
  tools: number;
  error?: string;
}

export interface GatewayWorld {
  world: LensWorld;
  http: GatewayHttpServer;
  url: string;
  port: number;
  token: string;
  client: Client;
  connect(): Promise<Client>;
  /** Calls a meta-tool (or a direct tool) and returns the result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** call_tool on a catalog tool found by server and original name. */
  callUpstream(server: string, originalName: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  servers(): Promise<ServerEntry[]>;
  server(name: string): Promise<ServerEntry>;
  /** find_tools + call_tool on server-everything's get-sum still work. */
  healthy(): Promise<void>;
  close(): Promise<void>;
}

export interface GatewayWorldOptions {
  /** Mount the dashboard routes as `serve --http` does (needs dist/webview built). */
  dashboard?: boolean;
}

export async function startGatewayWorld(
  upstreams: Record<string, RawServerEntry>,
  settings: Partial<McpLensSettings> = {},
  options: GatewayWorldOptions = {},
): Promise<GatewayWorld> {
  const token = `fault-token-${Math.random().toString(36).slice(2)}`;
  const world = await startLens(upstreams, settings);
  const routes = options.dashboard
    ? createDashboardRoutes({
        lens: world.lens,
        stats: () => http.stats(),
        token,
        staticDir: join(ROOT, 'dist/webview'),
        log: silentLogger,
      })
    : undefined;
  const http: GatewayHttpServer = new GatewayHttpServer({
    lens: world.lens,
    token,
    log: silentLogger,
    sessionIdleMs: 120_000,
    // Every session acts for the workspace, as the editor's do: the faults are those of the
    // workspace's own connections, whose state list_servers shows (test/security's
    // *-across-sessions tests cover the processes `serve --http` starts per client).
    principalFor: () => WORKSPACE_PRINCIPAL,
    ...(routes && { routes }),
  });
  const { url, port } = await http.start();
  const clients: Client[] = [];
  const connect = async () => {
    const c = new Client({ name: 'fault-suite', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(c);
    return c;
  };
  const client = await connect();
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  const toolName = (server: string, originalName: string) => {
    const t = world.lens.tools().find((x) => x.server === server && x.originalName === originalName);
    assert.ok(t, `no tool ${server}/${originalName} in the catalog`);
    return t.name;
  };
  const servers = async () => (JSON.parse(text(await call('list_servers'))) as { servers: ServerEntry[] }).servers;
  return {
    world,
    http,
    url,
    port,
    token,
    client,
    connect,
    call,
    callUpstream: (server, originalName, args = {}) =>
      call('call_tool', { tool_name: toolName(server, originalName), arguments: args }),
    servers,
    async server(name) {
      const s = (await servers()).find((x) => x.name === name);
      assert.ok(s, `list_servers has no ${name}`);
      return s;
    },
    async healthy() {
      const found = await call('find_tools', { query: 'add two numbers' });
      assert.ok(!found.isError, text(found));
      const matches = (found.structuredContent as { matches: { name: string }[] }).matches;
      const sum = toolName('everything', 'get-sum');
      assert.ok(
        matches.some((m) => m.name === sum),
        `get-sum not found: ${matches.map((m) => m.name).join(', ')}`,
      );
      const added = await call('call_tool', { tool_name: sum, arguments: { a: 20, b: 22 } });
      assert.ok(!added.isError, text(added));
      assert.match(text(added), /\b42\b/);
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      routes?.close();
      await http.close();
      await world.close();
    },
  };
}

/** Resident set size of this process in MB, after a GC when --expose-gc allows it. */
export function rssMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

/** Samples this process's RSS every 10 ms until `stop()`, which returns the peak in MB. */
export function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage().rss) / (1024 * 1024));
    },
  };
}

/** Log lines a test can search (level: message). */
export interface LogLines {
  lines: string[];
  logger: Logger;
}

export function captureLog(): LogLines {
  const lines: string[] = [];
  return { lines, logger: lineLogger((level, line) => lines.push(`${level}: ${line}`), 'info') };
}

/**
 * A LensApp with the real tool index (LanceDB in `storageDir`, embeddings from `ollamaHost`),
 * as the sidecar builds it; `servers` written to a temp workspace's mcp.json.
 */
export async function startIndexedLens(
  upstreams: Record<string, RawServerEntry>,
  opts: { storageDir: string; ollamaHost: string; log: Logger; workspace?: TestWorkspace },
): Promise<LensWorld> {
  const workspace = opts.workspace ?? makeWorkspace(upstreams);
  const lens = await LensApp.start({
    workspaceFolder: workspace.dir,
    storageDir: opts.storageDir,
    settings: sanitizeSettings({
      embedding: { enabled: true, model: 'nomic-embed-text' },
      ollama: { host: opts.ollamaHost },
    }),
    configFile: workspace.configFile,
    trusted: true,
    approvals: {},
    autoApprove: true,
    inputs: {},
    log: opts.log,
  });
  return {
    lens,
    workspace,
    async close() {
      await lens.close();
      if (!opts.workspace) workspace.close();
    },
  };
}
