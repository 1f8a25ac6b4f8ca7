/**
 * The sessions-against-each-other world (SECURITY.md "Whom a session acts for"): a workspace with
 * real stdio upstreams (@modelcontextprotocol/server-filesystem allowed `public/` only, and
 * test/fixtures/servers/sessionProbe.mjs, which asks its client when a test opens a gate file),
 * served by the real gateway over streamable HTTP on 127.0.0.1, and real SDK clients, one per
 * session, each answering what an upstream asks with its own name so a test sees whose answer
 * decided a call.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { RawServerEntry } from '../../protocol/settings';
import { silentLogger } from '../../server/src/core/logger';
import type { LensAppOptions } from '../../server/src/app/lensAppOptions';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import type { GatewayHttpOptions } from '../../server/src/gateway/httpOptions';
import { ROOT, filesystem, startLens, until, type LensWorld } from '../fixtures/gatewayLens';

export const PROBE: RawServerEntry = {
  type: 'stdio',
  command: process.execPath,
  args: [join(ROOT, 'test/fixtures/servers/sessionProbe.mjs')],
};

export function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** One downstream session, and everything its client was asked or told. */
export interface Session {
  name: string;
  client: Client;
  elicited: string[];
  sampled: string[];
  logged: string[];
  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface SessionWorld {
  dir: string;
  /** Folders the sessions may declare as roots (each with one file in it). */
  folder(name: string, file?: string, content?: string): string;
  /**
   * A gate for sessionProbe's wait_then_ask: `started` resolves with the upstream's pid once the
   * call is in it, `open` lets it ask.
   */
  gate(name: string): { path: string; started(): Promise<number>; open(): void };
  lens: LensWorld['lens'];
  /** The gateway's endpoint and token, for clients the world does not make (a 2026-07-28 one). */
  url: string;
  token: string;
  connect(name: string, capabilities: ClientCapabilities, roots?: string[]): Promise<Session>;
  close(): Promise<void>;
}

/**
 * `gateway`: options of the gateway beside the Lens and token (the editor's sidecar passes its
 * principal there); default: as `mcp-lens serve --http`. `pool`: the upstream pool's options.
 */
export async function startSessionWorld(
  gateway: Partial<GatewayHttpOptions> = {},
  pool?: LensAppOptions['pool'],
): Promise<SessionWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-sessions-'));
  const folder = (name: string, file = 'readme.txt', content = `${name} file`) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, file), content);
    return path;
  };
  const servers = { fs: filesystem(folder('public')), probe: PROBE };
  const world = await startLens(servers, { exposure: 'all', callTimeoutSeconds: 120 }, undefined, pool);
  const token = 'sessions-' + Math.random().toString(36).slice(2) + 'x'.repeat(32);
  const http = new GatewayHttpServer({ lens: world.lens, token, log: silentLogger, sessionIdleMs: 60_000, ...gateway });
  const { url } = await http.start();
  const sessions: Session[] = [];

  async function connect(name: string, capabilities: ClientCapabilities, roots: string[] = []): Promise<Session> {
    const client = new Client({ name, version: '1.0.0' }, { capabilities });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const session: Session = {
      name,
      client,
      elicited: [],
      sampled: [],
      logged: [],
      call: (tool, args) => client.callTool({ name: tool, arguments: args }) as Promise<CallToolResult>,
      // As a client that is done: the session ends (DELETE), not only the connection.
      async close() {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      },
    };
    // The SDK's client takes a handler only for a capability it declared.
    if (capabilities.elicitation)
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        session.elicited.push(request.params.message);
        return { action: 'accept', content: { name } };
      });
    if (capabilities.sampling)
      client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        const content = request.params.messages[0]?.content as { text?: string };
        session.sampled.push(content.text ?? '');
        return { role: 'assistant', content: { type: 'text', text: `${name}'s model` }, model: name };
      });
    if (capabilities.roots)
      client.setRequestHandler(ListRootsRequestSchema, async () => ({
        roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
      }));
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void session.logged.push(String(n.params.data)),
    );
    await client.connect(transport);
    sessions.push(session);
    return session;
  }

  function gate(name: string) {
    const path = join(dir, `gate-${name}`);
    return {
      path,
      async started() {
        await until(`the call behind gate ${name} to reach the upstream`, () => existsSync(`${path}.started`), 60_000);
        return Number(readFileSync(`${path}.started`, 'utf8'));
      },
      open: () => writeFileSync(path, ''),
    };
  }

  return {
    dir,
    folder,
    gate,
    lens: world.lens,
    url,
    token,
    connect,
    async close() {
      await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
      await http.close();
      await world.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a process is alive (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a condition only a request can check (one request at a time); fails after `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
