/**
 * A team's admins approve server definitions: the same fingerprint approval as a person at the
 * terminal or the dashboard gives, by role. `GET /admin/servers` lists what waits for approval
 * (every field of each definition, as an approval prompt shows it); `POST /admin/servers/approve`
 * with `{"name", "fingerprint"}` approves exactly the definition that was shown. Only a person
 * in one of the team's admin groups may ask, with a valid token for this MCP Lens; anyone else
 * gets 403, and no one without a token learns the routes exist beyond the 401.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PendingApproval } from '../app/lensControl';
import { errorMessage } from '../core/errorMessage';
import type { ExtraRoutes } from './httpOptions';
import { readBody, sendJsonError } from './httpGuards';
import type { TeamDoor } from './teamDoor';
import type { ToolView } from './toolView';

export interface TeamAdminOptions {
  door: TeamDoor;
  viewFor(groups: () => readonly string[]): ToolView;
  pending(): PendingApproval[];
  /** Approves `name` at `fingerprint` (refused when the definition changed since). */
  approve(name: string, fingerprint: string): Promise<void>;
}

const MAX_APPROVE_BYTES = 16 * 1024;

export function teamAdminRoutes(o: TeamAdminOptions): ExtraRoutes {
  return async (req, res, { url }) => {
    if (url.pathname !== '/admin/servers' && url.pathname !== '/admin/servers/approve') return false;
    const identity = await o.door.authenticate(req, res);
    if (!identity) return true;
    if (!o.viewFor(() => identity.groups).isAdmin()) {
      sendJsonError(
        res,
        403,
        -32003,
        'Forbidden: approving servers is for the team admins (team configuration "admins")',
      );
      return true;
    }
    if (url.pathname === '/admin/servers' && req.method === 'GET') {
      const servers = o
        .pending()
        .filter((p) => p.kind === undefined)
        .map(({ name, fingerprint, summary, details, sourceFile }) => ({
          name,
          fingerprint,
          summary,
          details,
          sourceFile,
        }));
      json(res, 200, { servers });
      return true;
    }
    if (url.pathname === '/admin/servers/approve' && req.method === 'POST') {
      await approve(req, res, o);
      return true;
    }
    sendJsonError(res, 405, -32000, `Method not allowed: ${req.method} ${url.pathname}`);
    return true;
  };
}

async function approve(req: IncomingMessage, res: ServerResponse, o: TeamAdminOptions): Promise<void> {
  let body: { name?: unknown; fingerprint?: unknown };
  try {
    body = JSON.parse((await readBody(req, MAX_APPROVE_BYTES)).toString('utf8')) as typeof body;
  } catch {
    sendJsonError(res, 400, -32700, 'Bad Request: the body must be JSON {"name": "...", "fingerprint": "..."}');
    return;
  }
  if (typeof body.name !== 'string' || typeof body.fingerprint !== 'string') {
    sendJsonError(
      res,
      400,
      -32602,
      'Bad Request: the body must name "name" and "fingerprint" (from GET /admin/servers)',
    );
    return;
  }
  try {
    await o.approve(body.name, body.fingerprint);
    json(res, 200, { approved: body.name });
  } catch (err) {
    sendJsonError(res, 409, -32000, `Not approved: ${errorMessage(err)}`);
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}
