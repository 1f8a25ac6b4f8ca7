/**
 * One attempt at talking to a server: a Client over one transport (and, for stdio, one
 * process). Opening runs initialize within a deadline; closing makes sure the process is gone.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, JSONRPCNotification, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerConfig } from '../../core/config/types';
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';
import { terminate, trackChild } from './childReaper';
import { StandaloneStreamWatch } from './standaloneStream';
import type { StderrTail } from './stderrTail';
import { describeSpawnError, modernCandidate, transportCandidates, type TransportCandidate } from './transports';
import type { ServerAuth } from './auth/serverAuth';
import { isNeedsSignIn } from './auth/needsSignIn';
import { ModernEraTransport } from './modernEra';
import { refusedHandshake, type DualEraChannel } from './dualEra';

export type ListKind = 'tools' | 'prompts' | 'resources';

export interface Session {
  client: Client;
  /** `modern`: `client` speaks protocol revision 2026-07-28 to the server (modernEra.ts). */
  era?: 'modern';
  /**
   * A server that speaks both eras (over HTTP): a second Client speaking 2026-07-28, for what
   * only that era lists and for the calls of 2026-07-28 clients (dualEra.ts).
   */
  modern?: DualEraChannel;
  /** Settles once the server was asked whether it speaks 2026-07-28 too (and the channel opened if so). */
  modernProbe?: Promise<void>;
  pid?: number;
  /** Set before we close it on purpose, so its close is not taken for a crash. */
  closing: boolean;
  /** Resolves when the transport closed (for stdio: the process is gone). */
  exited: Promise<void>;
  /** Set once closing began; closing twice waits on the same work. */
  closed?: Promise<void>;
}

/** How a session reports back to its connection. */
export interface SessionHooks {
  /** The server's name, for log lines. */
  server: string;
  log: Logger;
  clientInfo: { name: string; version: string };
  /** What MCP Lens's client declares at initialize. */
  capabilities: ClientCapabilities;
  /**
   * A request from the server (sampling, elicitation, roots) or a notification without a
   * handler of its own (logging, resources/updated, …), taken raw so nothing in it is lost.
   */
  onServerRequest?(request: JSONRPCRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
  onServerNotification?(notification: JSONRPCNotification): void;
  /** Called at once, before anything can hang, so the caller can kill it if need be. */
  onCreated(session: Session): void;
  /** Called when opening succeeded or failed. */
  onSettled(session: Session): void;
  onSpawned(session: Session): void;
  onClosed(session: Session): void;
  onListChanged(session: Session, kind: ListKind): void;
  onTransportError(error: Error): void;
  /** An HTTP server refuses this session its server-to-client stream for good (standaloneStream.ts). */
  onStreamLost(session: Session): void;
}

/**
 * The SDK gives every Client its own Ajv instance (time and memory for each, twenty-odd at
 * start) for what we never ask of it: we call tools/call and tools/list with `request`, not
 * through callTool/listTools, whose output schema checks it is for. One for every client,
 * made on first use, if ever.
 */
let ajv: AjvJsonSchemaValidator | undefined;
const sharedValidator: jsonSchemaValidator = {
  getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

/**
 * Opens a session over the first of the server's transports that answers (transports.ts), all
 * within one connect deadline. A failure names each attempt and, for a process that died while
 * starting, its last stderr line: that is usually the useful part.
 */
export async function openFirstSession(
  config: ServerConfig,
  stderr: StderrTail,
  hooks: SessionHooks,
  connectTimeoutMs: number,
  auth?: ServerAuth,
): Promise<Session> {
  const deadline = Date.now() + connectTimeoutMs;
  const failures: { label: string; reason: string }[] = [];
  const candidates = transportCandidates(config, stderr, auth);
  let lastError: unknown;
  for (const candidate of candidates) {
    // 2026-07-28 is tried once the server is there and refused the 2025 handshake.
    if (candidate.era === 'modern' && !refusedHandshake(lastError)) continue;
    try {
      const session = await openSession(candidate, deadline - Date.now(), hooks, connectTimeoutMs);
      if (!candidate.era) session.modernProbe = addModernChannel(session, config, hooks, connectTimeoutMs);
      return session;
    } catch (error) {
      lastError = error;
      // The server answered, and wants a sign-in: the other transport would hear the same.
      if (isNeedsSignIn(error)) throw error;
      const spawnError = describeSpawnError(config, error);
      const reason = spawnError ?? errorMessage(error);
      failures.push({ label: candidate.label, reason });
      if (Date.now() >= deadline || spawnError) break;
    }
  }
  const last = stderr.lastLine();
  // Each attempt is named when there was more than one.
  const text = failures.map((f) => (failures.length > 1 ? `${f.label}: ${f.reason}` : f.reason)).join('; ');
  throw new Error(text + (last && config.type === 'stdio' ? ` (stderr: ${last})` : ''));
}

/**
 * Creates the transport and client and runs initialize within timeoutMs (what is left of the
 * connect deadline); errors name `connectTimeoutMs`, the limit the user configured.
 */
export async function openSession(
  candidate: TransportCandidate,
  timeoutMs: number,
  hooks: SessionHooks,
  connectTimeoutMs = timeoutMs,
): Promise<Session> {
  if (timeoutMs <= 0) throw new Error('connect timed out');
  const transport =
    candidate.era === 'modern'
      ? new ModernEraTransport(candidate.create(), { clientInfo: hooks.clientInfo, capabilities: hooks.capabilities })
      : candidate.create();
  const client = new Client(hooks.clientInfo, {
    capabilities: hooks.capabilities,
    jsonSchemaValidator: sharedValidator,
  });
  // Raw handlers, not the SDK's typed ones: those parse (and so strip) what they do not know.
  const { onServerRequest, onServerNotification } = hooks;
  if (onServerRequest) client.fallbackRequestHandler = (request, extra) => onServerRequest(request, extra.signal);
  if (onServerNotification)
    client.fallbackNotificationHandler = async (notification) =>
      onServerNotification(notification as JSONRPCNotification);
  let markExited!: () => void;
  const session: Session = { client, closing: false, exited: new Promise<void>((r) => (markExited = r)) };
  if (candidate.era) session.era = candidate.era;
  watchSpawn(transport, session, hooks);
  hooks.onCreated(session);
  const watch =
    transport instanceof StreamableHTTPClientTransport
      ? new StandaloneStreamWatch(transport, hooks.server, hooks.log, () => hooks.onStreamLost(session))
      : undefined;
  client.onclose = () => {
    watch?.stop();
    markExited();
    hooks.onClosed(session);
  };
  // Garbage on stdout, a broken SSE stream...: the SDK reports and keeps going; so do we.
  client.onerror = (error) => {
    watch?.onTransportError(error);
    hooks.onTransportError(error);
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => hooks.onListChanged(session, 'tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, async () =>
    hooks.onListChanged(session, 'prompts'),
  );
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () =>
    hooks.onListChanged(session, 'resources'),
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to initialize within ${connectTimeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.connect(transport, { timeout: timeoutMs }), timeout]);
    return session;
  } catch (error) {
    await closeSessionProcess(session);
    throw error;
  } finally {
    clearTimeout(timer);
    hooks.onSettled(session);
  }
}

/**
 * A remote server that accepted the 2025 handshake is asked whether it speaks 2026-07-28 too: if
 * so, a second Client speaking it joins the session (dualEra.ts), and the tools and prompts are
 * listed again to take in what only that era has. Asked beside the session's start, not before:
 * nothing waits for the answer. Its requests and notifications reach MCP Lens as the session's
 * do; it going away only drops it.
 */
async function addModernChannel(
  session: Session,
  config: ServerConfig,
  hooks: SessionHooks,
  timeoutMs: number,
): Promise<void> {
  // Asked without the sign-in: a second Client on it would run OAuth flows of its own (a sign-in,
  // a refresh, a step-up to more scopes) beside the session's, racing them. A server that wants
  // an account for the question is spoken to in the 2025 era.
  const candidate = modernCandidate(config);
  if (!candidate || timeoutMs <= 0) return;
  const noop = () => undefined;
  const channelHooks: SessionHooks = {
    ...hooks,
    onCreated: noop,
    onSettled: noop,
    onSpawned: noop,
    onStreamLost: noop,
    onClosed: (channel) => {
      if (session.modern?.client === channel.client) delete session.modern;
    },
    onListChanged: (_channel, kind) => hooks.onListChanged(session, kind),
  };
  try {
    const channel = await openSession(candidate, timeoutMs, channelHooks);
    if (session.closing) return void closeSessionProcess(channel);
    session.modern = {
      client: channel.client,
      modernOnly: { tools: new Set(), prompts: new Set() },
      close: () => closeSessionProcess(channel),
    };
    hooks.onListChanged(session, 'tools');
    hooks.onListChanged(session, 'prompts');
  } catch (error) {
    hooks.log.debug(`[${hooks.server}] speaks only the 2025 revisions: ${errorMessage(error)}`);
  }
}

/** Records the pid as soon as the process is spawned, before initialize can hang. */
function watchSpawn(transport: Transport, session: Session, hooks: SessionHooks): void {
  const withPid = transport as Transport & { pid?: number | null };
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    if (typeof withPid.pid === 'number') {
      session.pid = withPid.pid;
      trackChild(withPid.pid);
      hooks.onSpawned(session);
    }
  };
}

/** Closes the client and makes sure the process is gone (SIGTERM, then SIGKILL). */
export function closeSessionProcess(session: Session): Promise<void> {
  session.closing = true;
  session.closed ??= (async () => {
    void session.modern?.close();
    const closed = session.client.close().catch(() => undefined);
    if (session.pid !== undefined) await terminate(session.pid, session.exited);
    else await Promise.race([closed, new Promise((r) => setTimeout(r, 2000).unref())]);
  })();
  return session.closed;
}
