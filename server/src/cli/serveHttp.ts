/**
 * `mcp-lens serve --http`: the gateway over streamable HTTP, for one person (a bearer token and
 * the dashboard) or a team (sign-in, policy, audit: `--team`), and how it stops (a drain on
 * SIGTERM).
 */
import type { Logger } from '../core/logger';
import type { Lens } from '../app/lens';
import { dashboardStaticDir } from '../gateway/dashboard/staticDir';
import type { ApproveServer } from '../gateway/dashboard/handlers';
import { generateToken, tokenProblem } from '../gateway/httpGuards';
import { removeGatewayFiles, writeGatewayInfo, writeTokenFile } from '../gateway/gatewayFiles';
import { errorMessage } from '../core/errorMessage';
import { listenProblem, teamServing, tlsFiles } from './serveTeam';
import type { TeamConfig } from '../core/team/teamConfig';
import { teamAdminRoutes } from '../gateway/teamAdmin';
import { JsonlAuditSink } from '../adapters/audit/jsonlAuditSink';
import { replicaId } from '../gateway/callAudit';
import type { PendingApproval } from '../app/lensControl';
import type { TeamState } from '../adapters/state/teamState';

/** MCP_LENS_TOKEN when set (refused when weaker than 128 bits), else undefined: a fresh one is generated. */
export function givenToken(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.MCP_LENS_TOKEN?.trim();
  if (!given) return undefined;
  const problem = tokenProblem(given);
  if (problem) throw new Error(problem);
  return given;
}

export interface HttpListen {
  host: string;
  team?: string;
  teamConfig?: TeamConfig;
  /** What waits for an admin's approval (team only). */
  pending?: () => PendingApproval[];
  tls?: { cert: Buffer; key: Buffer };
  /** Replicas' shared state (`--state`): the team's audit goes there. */
  state?: TeamState;
}

/** Where and how `--http` listens; refused, before anything starts, when it would not be safe. */
export function listenOptions(values: Record<string, unknown>, http: boolean): HttpListen {
  const host = typeof values.host === 'string' ? values.host : '127.0.0.1';
  const team = typeof values.team === 'string' ? values.team : undefined;
  const named = ['host', 'team', 'tls-cert', 'tls-key', 'behind-tls-proxy'].filter((k) => values[k] !== undefined);
  if (!http && named.length) throw new Error(`--${named[0]} applies to --http only`);
  const tls = tlsFiles(values['tls-cert'] as string | undefined, values['tls-key'] as string | undefined);
  const problem = listenProblem({
    host,
    team: team !== undefined,
    tls: tls !== undefined,
    behindTlsProxy: values['behind-tls-proxy'] === true,
  });
  if (problem) throw new Error(problem);
  return { host, ...(team !== undefined && { team }), ...(tls && { tls }) };
}

export async function serveHttp(
  lens: Lens,
  port: number,
  log: Logger,
  approveServer: ApproveServer,
  listen: HttpListen,
): Promise<void> {
  if (listen.teamConfig) return serveTeamHttp(lens, port, log, listen, { config: listen.teamConfig, approveServer });
  // Loaded for --http only: the HTTP transport and its server (hono) would cost a stdio serve memory and start-up time.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { GatewayHttpServer } = require('../gateway/http') as typeof import('../gateway/http');
  const { createDashboardRoutes } =
    require('../gateway/dashboard/routes') as typeof import('../gateway/dashboard/routes');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const given = givenToken(process.env);
  const token = given ?? generateToken();
  const ws = lens.workspaceFolder;
  // The token file and gateway.json are never written through a link a repository planted:
  // refused, said, and served on without them (the token is then printed: MCP Lens made it).
  let tokenFile: string | undefined;
  if (!given) tokenFile = writeOrWarn(() => writeTokenFile(ws, token), log);
  // The dashboard is served beside /mcp; its stats come from this server's savings tracker.
  const routes = createDashboardRoutes({
    lens,
    stats: () => server.stats(),
    token,
    staticDir: dashboardStaticDir(),
    log,
    approveServer,
  });
  const server = new GatewayHttpServer({ lens, token, port, log, routes });
  const { url } = await server.start();
  writeOrWarn(() => writeGatewayInfo(ws, { url, pid: process.pid }), log);
  // One write, so a reader waiting for the ready line gets the instructions with it.
  process.stderr.write(
    `MCP Lens listening on ${url}\n` + howToConnect(url, given ? undefined : (tokenFile ?? { token })),
  );
  // Like Jupyter: the link carries the token once; the page trades it for a cookie. A token the
  // user chose (MCP_LENS_TOKEN) is theirs to keep: it is never printed.
  const dashboard = new URL('/', url).href;
  process.stderr.write(
    given
      ? `Dashboard: ${dashboard}?token=<the value of MCP_LENS_TOKEN>\n`
      : `Dashboard: ${dashboard}?token=${encodeURIComponent(token)}\n`,
  );
  await drainOnStop(server, log);
  removeGatewayFiles(ws, process.pid, !given);
  routes.close();
  await server.close();
}

/** `--team`: no token and no dashboard; people sign in, admins read /stats. */
async function serveTeamHttp(
  lens: Lens,
  port: number,
  log: Logger,
  listen: HttpListen,
  { config, approveServer }: { config: TeamConfig; approveServer: ApproveServer },
): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { GatewayHttpServer } = require('../gateway/http') as typeof import('../gateway/http');
  const { team } = teamServing(config, lens, log);
  const routes = teamAdminRoutes({ ...team, pending: listen.pending ?? (() => []), approve: approveServer });
  // Replicas keep one audit in their shared database; one process, the file beside the team's config.
  const sink = listen.state?.audit ?? new JsonlAuditSink(config.audit.file!);
  const server = new GatewayHttpServer({
    lens,
    token: generateToken(),
    port,
    log,
    team,
    routes,
    audit: { sink, arguments: config.audit.arguments, replica: replicaId() },
    host: listen.host,
    ...(listen.tls && { tls: listen.tls }),
  });
  const { url } = await server.start();
  process.stderr.write(
    `MCP Lens serves the team on ${url} as ${config.resource}\n` +
      `People sign in with ${config.signIn.issuer} (metadata: ${team.door.metadataUrl}).\n` +
      `Tool calls are audited in ${listen.state ? listen.state.db.name : config.audit.file} (mcp-lens audit --team FILE).\nPress Ctrl+C to stop.\n`,
  );
  await drainOnStop(server, log);
  await server.close();
  if (!listen.state) await sink.close();
}

/** Until a signal; on SIGTERM (Kubernetes, a service manager) the calls in flight finish first, within a bound. */
async function drainOnStop(server: { drain(ms: number): Promise<boolean> }, log: Logger): Promise<void> {
  const signal = await stopSignal();
  if (signal === 'SIGTERM' && !(await server.drain(drainMs(process.env))))
    log.warn(`shutting down with calls still in flight after ${drainMs(process.env)} ms (MCP_LENS_DRAIN_MS)`);
}

/** SIGINT, SIGTERM or SIGHUP: shut down cleanly so upstream processes are stopped with us. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
  });
}

/** How long SIGTERM waits for calls in flight: MCP_LENS_DRAIN_MS, default 20 s (inside Kubernetes' 30 s grace). */
export const DEFAULT_DRAIN_MS = 20_000;
function drainMs(env: NodeJS.ProcessEnv): number {
  if (!env.MCP_LENS_DRAIN_MS?.trim()) return DEFAULT_DRAIN_MS;
  const n = Number(env.MCP_LENS_DRAIN_MS);
  return Number.isInteger(n) && n >= 0 && n <= 600_000 ? n : DEFAULT_DRAIN_MS;
}

function writeOrWarn(write: () => string, log: Logger): string | undefined {
  try {
    return write();
  } catch (err) {
    log.warn(errorMessage(err));
    return undefined;
  }
}

/**
 * How to add the server to a client. A token the user gave is never printed; a generated one
 * only when its file could not be written.
 */
function howToConnect(url: string, token: string | { token: string } | undefined): string {
  const tokenFile = typeof token === 'string' ? token : undefined;
  const shown = typeof token === 'object' ? token.token : undefined;
  const tokenExpr = tokenFile ? `$(cat '${tokenFile}')` : (shown ?? '$MCP_LENS_TOKEN');
  const where = tokenFile
    ? `Token: in ${tokenFile} (new at every start; set MCP_LENS_TOKEN for a fixed one)`
    : shown
      ? `Token: ${shown} (generated; .mcp-lens/token could not be written)`
      : 'Token: the value of MCP_LENS_TOKEN';
  const vscode = {
    inputs: [{ id: 'mcp-lens-token', type: 'promptString', description: 'MCP Lens token', password: true }],
    servers: { 'mcp-lens': { type: 'http', url, headers: { Authorization: 'Bearer ${input:mcp-lens-token}' } } },
  };
  return [
    where,
    '',
    'Claude Code:',
    `  claude mcp add --transport http mcp-lens ${url} --header "Authorization: Bearer ${tokenExpr}"`,
    '',
    '.vscode/mcp.json:',
    ...JSON.stringify(vscode, null, 2)
      .split('\n')
      .map((l) => '  ' + l),
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}
