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
import { resolve } from 'node:path';
import type { TeamState } from '../adapters/state/teamState';
import { stateUrl } from '../adapters/state/stateUrl';

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
    state: {
      value: 'URL',
      help: 'with --http: keep approvals, audit, search learning and sign-ins in this PostgreSQL database (postgres://user@host:port/db), shared by every replica; MCP_LENS_DATABASE_URL if not given. Sign-ins are sealed with MCP_LENS_STATE_KEY (or the file MCP_LENS_STATE_KEY_FILE names).',
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
    // A weak MCP_LENS_TOKEN is refused before anything starts.
    if (http) givenToken(process.env);
    if (values.state !== undefined && !http) throw new Error('--state needs --http: shared state is for replicas');
    const url = http ? stateUrl(values.state) : undefined;
    const state = url ? await openState(url, resolve(values.workspace ?? process.cwd()), log) : undefined;
    if (state) log.info(`MCP Lens keeps its shared state in ${state.db.name} (replica ${state.db.replica})`);
    // Over stdio, the client that started us asks for its tools at once: that first tools/list is
    // answered from the cached catalog before the servers launch and the catalog is indexed
    // (twenty servers starting on a small machine would take the CPU it needs), or, if it does
    // not ask, FIRST_ASK_WAIT_MS after the gateway is up.
    let startServers: () => void = () => undefined;
    const startAfter = http ? undefined : new Promise<void>((resolve) => (startServers = resolve));
    // Over stdio, stdin belongs to the MCP client: no terminal prompts.
    const lens = await openLens({
      state,
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
        await serveHttp(lens, port, log, (name, fingerprint) => approveFromDashboard(lens, name, fingerprint, state));
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
      await state?.close();
    }
  },
};

/**
 * The dashboard's Approve button: the same record `mcp-lens tools` writes after its prompt (the
 * approval store), for the definition the dashboard showed (its fingerprint), and only while it
 * is still the server's definition; the running server starts at once.
 */
async function approveFromDashboard(
  lens: Lens & LensControl,
  name: string,
  fingerprint: string,
  state: TeamState | undefined,
): Promise<void> {
  const pending = lens.pendingApprovals().find((p) => p.name === name);
  if (!pending) throw new Error(`"${name}" is not waiting for approval`);
  if (pending.fingerprint !== fingerprint) throw new Error(definitionChangedMessage(name));
  // Committed before the server starts: a replica that dies next loses no approval.
  if (state) await state.approvals.save({ [name]: pending.fingerprint });
  else saveApprovals(lens.workspaceFolder, { ...loadApprovals(lens.workspaceFolder), [name]: pending.fingerprint });
  await lens.approve({ [name]: pending.fingerprint });
}

/** Loaded only with --state: the PostgreSQL driver would cost every other command start-up time. */
async function openState(url: string, workspaceFolder: string, log: Logger): Promise<TeamState> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openTeamState } = require('../adapters/state/teamState') as typeof import('../adapters/state/teamState');
  return openTeamState({ url, workspaceFolder, log });
}

/** MCP_LENS_TOKEN when set (refused when weaker than 128 bits), else undefined: a fresh one is generated. */
export function givenToken(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.MCP_LENS_TOKEN?.trim();
  if (!given) return undefined;
  const problem = tokenProblem(given);
  if (problem) throw new Error(problem);
  return given;
}

async function serveHttp(lens: Lens, port: number, log: Logger, approveServer: ApproveServer): Promise<void> {
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
  const signal = await stopSignal();
  // SIGTERM (Kubernetes, a service manager): finish the calls in flight first, within a bound.
  if (signal === 'SIGTERM' && !(await server.drain(drainMs(process.env))))
    log.warn(`shutting down with calls still in flight after ${drainMs(process.env)} ms (MCP_LENS_DRAIN_MS)`);
  removeGatewayFiles(ws, process.pid, !given);
  routes.close();
  await server.close();
}

/** SIGINT, SIGTERM or SIGHUP: shut down cleanly so upstream processes are stopped with us. */
function stopSignal(): Promise<NodeJS.Signals> {
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
