/**
 * Whom a modern (2026-07-28) request acts for. The revision has no session: the principal a
 * request acts for (core/principal.ts: whose upstream connections, roots and requests) and the id
 * its per-session state is kept under — results kept whole, the usage it teaches, its token
 * accounting, what MCP Lens holds open for an input-required round — come from the front door.
 * Over HTTP the bearer token names the principal (every request carrying it is the same client;
 * a front door that names principals otherwise, the editor's, decides as for its sessions); over
 * stdio the connection does, for the workspace, as `serve`'s stdio session does.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { DownstreamClient } from '../../app/lens';
import { WORKSPACE_PRINCIPAL, type Principal } from '../../core/principal';
import type { ToolView } from '../toolView';

export interface ModernContext {
  readonly principal: Principal;
  /** The id per-session state is kept under. Never a secret. */
  readonly sessionId: string;
  /** A signed-in person's view of the team's servers and tools (policy); absent outside a team. */
  readonly view?: ToolView;
}

/** The principal a bearer token names: its SHA-256, shortened (the token cannot be read back). */
export function tokenPrincipal(token: string): Principal {
  const hash = createHash('sha256').update(token).digest('hex').slice(0, 16);
  return Object.freeze({
    id: `token:${hash}`,
    kind: 'client',
    label: `the 2026-07-28 client of token ${hash.slice(0, 8)}`,
  });
}

/** The context of a principal's stateless requests over HTTP. */
export function principalContext(principal: Principal, view?: ToolView): ModernContext {
  return { principal, sessionId: principal.id, ...(view && { view }) };
}

/** The context of one stdio connection's stateless requests (the workspace's). */
export function stdioContext(principal: Principal = WORKSPACE_PRINCIPAL): ModernContext {
  return { principal, sessionId: `stdio:${randomUUID()}` };
}

/**
 * The principal's 2026-07-28 requests as one downstream client of the app's (lens.clients): it
 * keeps the principal open — its upstream connections run while it is attached — and declares
 * what MCP Lens passes on to such a client during a request. Outside a request there is no one to
 * ask: an upstream's request then is refused at once, and notifications have nowhere to go.
 */
export function principalClient(context: ModernContext): DownstreamClient {
  return {
    sessionId: context.sessionId,
    principal: context.principal,
    capabilities: () => ({ sampling: {}, elicitation: { form: {}, url: {} }, roots: {} }),
    request: async (method) => {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `MCP Lens cannot ask a 2026-07-28 client for ${method} outside one of its requests`,
      );
    },
    notify: () => undefined,
  };
}
