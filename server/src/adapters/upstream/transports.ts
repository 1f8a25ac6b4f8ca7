/**
 * Builds the client transports for one server. Stdio spawns the command with process.env
 * merged with the server's env (as VS Code does), as the leader of its own process group
 * (processGroupTransport.ts), and pipes stderr into a bounded tail; 'http' tries streamable
 * HTTP first and falls back to SSE (as VS Code does); 'sse' is SSE only.
 */
import { existsSync } from 'node:fs';
import { escapeForDisplay } from '../../../../protocol/untrustedText';
import { ProcessGroupTransport } from './processGroupTransport';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from '../../core/config/types';
import type { StderrTail } from './stderrTail';
import type { ServerAuth } from './auth/serverAuth';
import { boundedFetch } from './boundedFetch';
import { withStandardHeaders } from './modernEra';

/** One way to reach a server, tried in order until one answers. */
export interface TransportCandidate {
  label: string;
  create(): Transport;
  /**
   * `modern`: speaks protocol revision 2026-07-28 (modernEra.ts wraps what `create` makes). A
   * server that refused the 2025 handshake is tried this way next: it may speak only 2026-07-28.
   */
  era?: 'modern';
}

/**
 * `auth`: a remote server that may need sign-in (auth/serverAuth.ts); it then carries the
 * configured headers itself. 'http' tries streamable HTTP, then the same speaking 2026-07-28,
 * then SSE; stdio tries the 2025 handshake, then 2026-07-28 (session.ts says when).
 */
export function transportCandidates(config: ServerConfig, stderr: StderrTail, auth?: ServerAuth): TransportCandidate[] {
  if (config.type === 'stdio')
    return [
      { label: 'stdio', create: () => stdioTransport(config, stderr) },
      { label: 'stdio (2026-07-28)', create: () => stdioTransport(config, stderr), era: 'modern' },
    ];
  const streamable = { label: 'streamable HTTP', create: () => streamableTransport(config, auth) };
  const sse = { label: 'SSE', create: () => sseTransport(config, auth) };
  return config.type === 'http' ? [streamable, modernCandidate(config, auth)!, sse] : [sse];
}

/** How a remote server is reached speaking 2026-07-28 (undefined for an SSE-only one: that transport predates it). */
export function modernCandidate(config: ServerConfig, auth?: ServerAuth): TransportCandidate | undefined {
  if (config.type !== 'http') return undefined;
  return {
    label: 'streamable HTTP (2026-07-28)',
    create: () => streamableTransport(config, auth, true),
    era: 'modern',
  };
}

function stdioTransport(config: StdioServerConfig, stderr: StderrTail): ProcessGroupTransport {
  const env: Record<string, string> = {};
  // Our own secrets (the gateway token, `${input:…}` values) are not the upstream's business.
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('MCP_LENS_')) env[k] = v;
  Object.assign(env, config.env);
  // `"NAME": null` in the config removes a variable the server would otherwise inherit.
  for (const name of config.removeEnv ?? []) delete env[name];
  // Spawned with shell: false, as the SDK did; on Windows a `.cmd` shim (npx) needs its full
  // name, which the per-platform command resolution supplies before this point.
  const transport = new ProcessGroupTransport({
    command: config.command,
    args: config.args,
    env,
    cwd: config.cwd,
    shownCommand: config.shown?.command ?? config.command,
  });
  // The PassThrough exists before start(), so even the earliest output is caught.
  transport.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return transport;
}

function streamableTransport(
  config: RemoteServerConfig,
  auth?: ServerAuth,
  modern = false,
): StreamableHTTPClientTransport {
  const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(
    new URL(config.url),
    remoteOptions(config, auth, () => transport, modern),
  );
  return transport;
}

function sseTransport(config: RemoteServerConfig, auth?: ServerAuth): SSEClientTransport {
  // The SDK sends requestInit headers on the event stream and on every POST.
  const transport: SSEClientTransport = new SSEClientTransport(
    new URL(config.url),
    remoteOptions(config, auth, () => transport),
  );
  return transport;
}

/**
 * What both remote transports are given: every body counted while it streams (boundedFetch.ts),
 * under the sign-in's provider and header rules when the server has OAuth, else the configured
 * headers on every request.
 */
function remoteOptions(
  config: RemoteServerConfig,
  auth: ServerAuth | undefined,
  transport: () => Transport,
  modern = false,
) {
  const bounded = boundedFetch(config.name, (error) => closeOnBreach(transport(), error));
  const fetch = modern ? withStandardHeaders(bounded) : bounded;
  return auth ? auth.transportOptions(fetch) : { requestInit: { headers: config.headers }, fetch };
}

/** A body over its budget (boundedFetch.ts): reported first, so the calls it fails name it, then the transport is closed. */
function closeOnBreach(transport: Transport, error: Error): void {
  transport.onerror?.(error);
  void transport.close().catch(() => undefined);
}

/**
 * A spawn failure in words a user understands; undefined if it is not one. The command and cwd
 * are named as shown (a value from `${env:…}` by its variable: it may be a secret).
 */
export function describeSpawnError(config: ServerConfig, error: unknown): string | undefined {
  if (config.type !== 'stdio') return undefined;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const command = escapeForDisplay(config.shown?.command ?? config.command);
  if (code === 'ENOENT') {
    // Node reports a missing cwd as ENOENT of the command too.
    if (config.cwd && !existsSync(config.cwd))
      return `working directory not found: ${escapeForDisplay(config.shown?.cwd ?? config.cwd)}`;
    return `command not found: ${command}`;
  }
  if (code === 'EACCES') return `command not executable: ${command}`;
  return undefined;
}
