/**
 * `mcp-lens serve`: the optimizing MCP server in front of every server the workspace
 * configures. Over stdio by default (stdout carries MCP messages only), or streamable HTTP on
 * 127.0.0.1 with `--http [PORT]`, protected by a bearer token.
 */
import type { Logger } from '../core/logger';
import type { Lens } from '../app/lens';
import type { LensControl } from '../app/lensControl';
import { loadApprovals, saveApprovals } from '../adapters/config/approvalStore';
import { dashboardStaticDir } from '../gateway/dashboard/staticDir';
import type { ApproveServer } from '../gateway/dashboard/handlers';
import { definitionChangedMessage } from '../../../protocol/webviewProtocol';
import { generateToken, tokenProblem } from '../gateway/httpGuards';
import { removeGatewayFiles, writeGatewayInfo, writeTokenFile } from '../gateway/gatewayFiles';
import { errorMessage } from '../core/errorMessage';
import { serveStdio } from '../gateway/stdio';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { WORKSPACE_OPTIONS, openLens } from './lensFromArgs';
import { promptWhileServing } from './livePrompts';
import { canPrompt } from './prompt';
import { stderrLogger } from './stderrLogger';
import { META_TOOL_NAMES } from '../../../protocol/metaToolNames';
import { listenProblem, sharedServersOf, teamServing, tlsFiles } from './serveTeam';
import { readTeamConfig } from '../adapters/config/teamConfigFile';
import type { TeamConfig } from '../core/team/teamConfig';
import { teamAdminRoutes } from '../gateway/teamAdmin';
import { JsonlAuditSink } from '../adapters/audit/jsonlAuditSink';
import { replicaId } from '../gateway/callAudit';
import type { PendingApproval } from '../app/lensControl';

/** How long `serve` over stdio waits for its client to ask for tools before it starts the servers anyway. */
const FIRST_ASK_WAIT_MS = 250;

const SPEC = {
  name: 'serve',
  summary: 'serve the optimizing MCP server (stdio, or HTTP on 127.0.0.1)',
  description: `Serves one MCP server whose\nmeta-tools (${META_TOOL_NAMES.join(', ')})\nstand in for every tool of every MCP server the workspace configures.`,
  // stdout carries MCP messages, even before they start.
  helpTo: 'stderr',
  options: {
    http: {
      value: 'PORT',
      optionalValue: true,
      integer: { min: 0, max: 65535 },
      help: 'streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (no PORT or 0: a free port). Requests need Authorization: Bearer <token>: MCP_LENS_TOKEN if set, otherwise a fresh token written to <workspace>/.mcp-lens/token (mode 0600) at every start.',
    },
    host: {
      value: 'ADDR',
      help: 'with --http: the address to listen on (default 127.0.0.1). Any other needs --team and TLS (--tls-cert/--tls-key or --behind-tls-proxy).',
    },
    team: {
      value: 'FILE',
      help: 'with --http: serve a team: people sign in with the team\'s identity provider, see what the team\'s policy lets them, and every tool call is audited (README, "Serve a team")',
    },
    'tls-cert': { value: 'FILE', help: 'with --http: serve HTTPS with this certificate (PEM)' },
    'tls-key': { value: 'FILE', help: "with --http: the certificate's private key (PEM)" },
    'behind-tls-proxy': {
      help: 'with --team: a proxy in front terminates TLS, so plain HTTP on another address than 127.0.0.1 is allowed',
    },
    ...WORKSPACE_OPTIONS,
  },
} as const satisfies CommandSpec<CliOptions>;

export const serve: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const http = values.http !== undefined;
    const port = typeof values.http === 'number' ? values.http : 0;
    const log = stderrLogger();
    const listen = listenOptions(values, http);
    // A weak MCP_LENS_TOKEN is refused before anything starts.
    if (http) givenToken(process.env);
    // Over stdio, the client that started us asks for its tools at once: that first tools/list is
    // answered from the cached catalog before the servers launch and the catalog is indexed
    // (twenty servers starting on a small machine would take the CPU it needs), or, if it does
    // not ask, FIRST_ASK_WAIT_MS after the gateway is up.
    let startServers: () => void = () => undefined;
    const startAfter = http ? undefined : new Promise<void>((resolve) => (startServers = resolve));
    // Over stdio, stdin belongs to the MCP client: no terminal prompts.
    const team = listen.team ? readTeamConfig(listen.team) : undefined;
    const lens = await openLens({
      ...(team && { team: { sharedServers: sharedServersOf(team) } }),
      workspace: values.workspace,
      config: values.config,
      trust: values.trust,
      log,
      interactive: http,
      live: true,
      startAfter,
    });
    // On a terminal, what comes to wait for approval while serving is asked about there.
    const prompts = http && canPrompt() ? promptWhileServing(lens, log) : undefined;
    try {
      if (http)
        await serveHttp(lens, port, log, (name, fingerprint) => approveFromDashboard(lens, name, fingerprint), {
          ...listen,
          ...(team && { teamConfig: team, pending: () => lens.pendingApprovals() }),
        });
      else {
        const stdio = await serveStdio(lens, log);
        const wait = setTimeout(startServers, FIRST_ASK_WAIT_MS);
        void stdio.gateway.firstAskedForTools().then(() => (clearTimeout(wait), startServers()));
        await Promise.race([stdio.closed, stopSignal()]);
        await stdio.close();
      }
      return 0;
    } finally {
      startServers();
      prompts?.dispose();
      await lens.close();
    }
  },
};

/**
 * The dashboard's Approve button: the same record `mcp-lens tools` writes after its prompt (the
 * approval store), for the definition the dashboard showed (its fingerprint), and only while it
 * is still the server's definition; the running server starts at once.
 */
async function approveFromDashboard(lens: Lens & LensControl, name: string, fingerprint: string): Promise<void> {
  const pending = lens.pendingApprovals().find((p) => p.name === name);
  if (!pending) throw new Error(`"${name}" is not waiting for approval`);
  if (pending.fingerprint !== fingerprint) throw new Error(definitionChangedMessage(name));
  saveApprovals(lens.workspaceFolder, { ...loadApprovals(lens.workspaceFolder), [name]: pending.fingerprint });
  await lens.approve({ [name]: pending.fingerprint });
}

/** MCP_LENS_TOKEN when set (refused when weaker than 128 bits), else undefined: a fresh one is generated. */
export function givenToken(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.MCP_LENS_TOKEN?.trim();
  if (!given) return undefined;
  const problem = tokenProblem(given);
  if (problem) throw new Error(problem);
  return given;
}

interface HttpListen {
  host: string;
  team?: string;
  teamConfig?: TeamConfig;
  /** What waits for an admin's approval (team only). */
  pending?: () => PendingApproval[];
  tls?: { cert: Buffer; key: Buffer };
}

/** Where and how `--http` listens; refused, before anything starts, when it would not be safe. */
function listenOptions(values: Record<string, unknown>, http: boolean): HttpListen {
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

async function serveHttp(
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
  await stopSignal();
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
  const sink = new JsonlAuditSink(config.audit.file!);
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
      `Tool calls are audited in ${config.audit.file} (mcp-lens audit --team FILE).\nPress Ctrl+C to stop.\n`,
  );
  await stopSignal();
  await server.close();
  await sink.close();
}

/** SIGINT, SIGTERM or SIGHUP: shut down cleanly so upstream processes are stopped with us. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGHUP', resolve);
  });
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
