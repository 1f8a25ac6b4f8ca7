/**
 * `mcp-lens login <server>` / `mcp-lens logout <server>`: sign in to (or out of) a remote MCP
 * server that needs an account (OAuth). The tokens go to the user's own file (0600, under
 * ~/.config/mcp-lens/, never the workspace), where `serve`, `tools` and `search` find them.
 */
import { escapeForDisplay } from '../../../protocol/untrustedText';
import { errorMessage } from '../core/errorMessage';
import { oauthFilePath } from '../adapters/upstream/auth/fileOAuthStore';
import type { CliCommand } from './command';
import type { Lens } from '../app/lens';
import type { LensControl } from '../app/lensControl';
import { commandUsage, parseCommand, usageError, type CliOptions, type CommandSpec } from './commandLine';
import { EXIT } from './exitCodes';
import { WORKSPACE_OPTIONS, openLens, reportVerdict, verdictOf } from './lensFromArgs';
import { unknownServerMessage } from './workspaceVerdict';
import { stderrLogger } from './stderrLogger';

const LOGIN = {
  name: 'login',
  args: '<server>',
  positionals: { min: 1, max: 1 },
  summary: 'sign in to a remote server that needs an account (OAuth)',
  description: `Signs in to a remote MCP server that needs an account (OAuth 2.1 with PKCE): opens the authorization page in your browser (or prints its address), waits for it to come back to http://127.0.0.1/callback on a free port, and keeps the tokens in ${oauthFilePath()} (mode 0600). \`mcp-lens serve\` then uses them, refreshing them as they expire.`,
  options: {
    'no-browser': { help: 'only print the address (sign in from any browser on this machine)' },
    ...WORKSPACE_OPTIONS,
  },
} as const satisfies CommandSpec<CliOptions>;

const LOGOUT = {
  name: 'logout',
  args: '<server>',
  positionals: { min: 1, max: 1 },
  summary: "forget a remote server's sign-in tokens",
  description: `Forgets the tokens and the registered client of a remote MCP server (in ${oauthFilePath()}).`,
  options: { workspace: WORKSPACE_OPTIONS.workspace, config: WORKSPACE_OPTIONS.config },
} as const satisfies CommandSpec<CliOptions>;

export const login: CliCommand = {
  usage: commandUsage(LOGIN, true),
  summary: LOGIN.summary,
  async run(argv) {
    const parsed = parseCommand(LOGIN, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values, positionals } = parsed;
    const name = positionals[0]!;
    const lens = await openLens({
      workspace: values.workspace,
      config: values.config,
      trust: values.trust,
      log: stderrLogger(),
      interactive: true,
      lightweight: true,
      signIn: { openBrowser: !values['no-browser'] },
    });
    try {
      const refused = notConfigured('login', lens, name, values.config);
      if (refused !== undefined) return refused;
      await lens.signIn(name);
      const status = lens.servers().find((s) => s.name === name);
      if (status?.state !== 'ready')
        throw new Error(
          `${name} is ${status?.state ?? 'gone'} after signing in${status?.error ? `: ${status.error}` : ''}`,
        );
      process.stdout.write(`Signed in to ${escapeForDisplay(name)}: ${status.toolCount} tools.\n`);
      return EXIT.ok;
    } catch (err) {
      process.stderr.write(`mcp-lens login: ${errorMessage(err)}\n`);
      return EXIT.failure;
    } finally {
      await lens.close();
    }
  },
};

export const logout: CliCommand = {
  usage: commandUsage(LOGOUT, true),
  summary: LOGOUT.summary,
  async run(argv) {
    const parsed = parseCommand(LOGOUT, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values, positionals } = parsed;
    const name = positionals[0]!;
    const lens = await openLens({
      workspace: values.workspace,
      config: values.config,
      log: stderrLogger(),
      interactive: true,
      lightweight: true,
      signIn: { openBrowser: false },
    });
    try {
      const refused = notConfigured('logout', lens, name, values.config);
      if (refused !== undefined) return refused;
      await lens.signOut(name);
      process.stdout.write(`Signed out of ${escapeForDisplay(name)}.\n`);
      return EXIT.ok;
    } catch (err) {
      process.stderr.write(`mcp-lens logout: ${errorMessage(err)}\n`);
      return EXIT.failure;
    } finally {
      await lens.close();
    }
  },
};

/**
 * The exit code when `name` is not a server the workspace configures (a broken configuration,
 * or a name not in it, said with the names there are); undefined when it is.
 */
function notConfigured(
  command: string,
  lens: Lens & LensControl,
  name: string,
  config: string | undefined,
): number | undefined {
  const verdict = verdictOf(lens, config);
  if (verdict.code === EXIT.config) return reportVerdict(command, verdict);
  const unknown = unknownServerMessage(name, lens.servers());
  return unknown === undefined ? undefined : usageError(command, unknown).exit;
}
