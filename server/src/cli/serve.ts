/**
 * `mcp-lens serve`: the optimizing MCP server in front of every server the workspace
 * configures. Over stdio by default (stdout carries MCP messages only), or streamable HTTP on
 * 127.0.0.1 with `--http [PORT]`, protected by a bearer token.
 */
import type { Logger } from '../core/logger';
import type { Lens } from '../app/lens';
import type { LensControl } from '../app/lensControl';
import { loadApprovals, saveApprovals } from '../adapters/config/approvalStore';
import { definitionChangedMessage } from '../../../protocol/webviewProtocol';
import { serveStdio } from '../gateway/stdio';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { WORKSPACE_OPTIONS, openLens } from './lensFromArgs';
import { promptWhileServing } from './livePrompts';
import { canPrompt } from './prompt';
import { stderrLogger } from './stderrLogger';
import { META_TOOL_NAMES } from '../../../protocol/metaToolNames';
import { sharedServersOf } from './serveTeam';
import { readTeamConfig } from '../adapters/config/teamConfigFile';
import { resolve } from 'node:path';
import type { TeamState } from '../adapters/state/teamState';
import { stateUrl } from '../adapters/state/stateUrl';
import { givenToken, listenOptions, serveHttp, stopSignal } from './serveHttp';

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
    const listen = listenOptions(values, http);
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
    const team = listen.team ? readTeamConfig(listen.team) : undefined;
    const lens = await openLens({
      ...(team && { team: { sharedServers: sharedServersOf(team) } }),
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
        await serveHttp(lens, port, log, (name, fingerprint) => approveFromDashboard(lens, name, fingerprint, state), {
          ...listen,
          ...(team && { teamConfig: team, pending: () => lens.pendingApprovals() }),
          ...(state && { state }),
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
