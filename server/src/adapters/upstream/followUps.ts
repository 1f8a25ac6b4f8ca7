/**
 * What MCP Lens's client declares to an upstream and where what the server asks goes, and the
 * state a client keeps with a server beyond single requests — the log level it asked for and the
 * resources it subscribed to — sent again after every reconnect, since a new process knows none of it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { EmptyResultSchema, type ClientCapabilities, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';
import type { InFlightCalls } from './inFlightCalls';
import type { SessionHooks } from './session';
import type { UpstreamInbound, UpstreamSource } from './types';
import { UI_EXTENSION, UI_MIME_TYPE } from '../../core/mcpApps';

/**
 * What MCP Lens passes on, declared to the workspace's own connections, which connect before any
 * downstream client exists (reconnecting every server when a session with other capabilities
 * arrives would cost a start each time): each request is answered by the client whose call caused
 * it, or refused at once with the protocol's error when it cannot answer
 * (app/upstreamRequests.ts). A server that adapts to a capability-less client therefore asks
 * anyway and gets that error. MCP Apps (`io.modelcontextprotocol/ui`) pass through MCP Lens
 * (core/mcpApps.ts): a server that registers its view tools only for a client that renders them
 * (ext-apps' getUiCapability) registers them, and a client that renders none gets the text every
 * such tool answers with too.
 */
export const UPSTREAM_CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
  extensions: { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } },
};

/**
 * What a principal's own connection declares: what its sessions declared, of what MCP Lens
 * passes on (never an extension it cannot forward). Roots always say listChanged: its sessions
 * coming and going change them.
 */
export function declaredFor(client: ClientCapabilities): ClientCapabilities {
  const out: ClientCapabilities = {};
  if (client.sampling) out.sampling = client.sampling;
  if (client.elicitation) out.elicitation = client.elicitation;
  if (client.roots) out.roots = { listChanged: true };
  // MCP Apps pass through (core/mcpApps.ts): the extension as the client declared it.
  const ui = client.extensions?.[UI_EXTENSION];
  if (ui) out.extensions = { [UI_EXTENSION]: ui };
  return out;
}

/**
 * The client side of a session: what it declares (`declared`), and where the server's requests
 * and notifications go, each with what is known of the call behind it (inFlightCalls.ts).
 * Without `inbound` (one-shot CLI commands) nothing is declared and such requests get -32601.
 */
export function clientSide(
  source: UpstreamSource,
  inbound: UpstreamInbound | undefined,
  calls: InFlightCalls,
  declared: ClientCapabilities = UPSTREAM_CLIENT_CAPABILITIES,
): Pick<SessionHooks, 'capabilities' | 'onServerRequest' | 'onServerNotification'> {
  if (!inbound) return { capabilities: {} };
  return {
    capabilities: declared,
    onServerRequest: (request, signal) =>
      inbound.request(source, request.method, request.params, calls.attribute(), signal),
    onServerNotification: (n) => inbound.notification(source, n.method, n.params, calls.attribute()),
  };
}

export class UpstreamFollowUps {
  logLevel: LoggingLevel | undefined;
  readonly subscriptions = new Set<string>();

  constructor(
    private readonly server: string,
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  /** A new session: the level and subscriptions the old one had. */
  afterConnect(client: Client): void {
    this.sendLogLevel(client);
    if (!client.getServerCapabilities()?.resources?.subscribe) return;
    for (const uri of this.subscriptions) {
      client
        .request({ method: 'resources/subscribe', params: { uri } }, EmptyResultSchema, { timeout: this.timeoutMs })
        .catch((err: unknown) =>
          this.log.warn(`[${this.server}] subscribing again to ${uri.slice(0, 200)}: ${errorMessage(err)}`),
        );
    }
  }

  /** logging/setLevel, when a level was asked for and the server logs. */
  sendLogLevel(client: Client): void {
    const level = this.logLevel;
    if (level === undefined || !client.getServerCapabilities()?.logging) return;
    client
      .request({ method: 'logging/setLevel', params: { level } }, EmptyResultSchema, { timeout: this.timeoutMs })
      .catch((err: unknown) => this.log.debug(`[${this.server}] logging/setLevel ${level}: ${errorMessage(err)}`));
  }

  sendRootsChanged(client: Client): void {
    client
      .sendRootsListChanged()
      .catch((err: unknown) => this.log.debug(`[${this.server}] roots/list_changed: ${errorMessage(err)}`));
  }
}
