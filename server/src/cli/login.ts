/**
 * `mcp-lens login <server>` / `mcp-lens logout <server>`: sign in to (or out of) a remote MCP
 * server that needs an account (OAuth). The tokens go to the user's own file (0600, under
 * ~/.config/mcp-lens/, never the workspace), where `serve`, `tools` and `search` find them.
 */
import { parseArgs } from 'node:util';
import { escapeForDisplay } from '../../../protocol/untrustedText';
import { errorMessage } from '../core/errorMessage';
import { oauthFilePath } from '../adapters/upstream/auth/fileOAuthStore';
import type { CliCommand } from './command';
import { WORKSPACE_FLAGS, WORKSPACE_HELP, openLens } from './lensFromArgs';
import { stderrLogger } from './stderrLogger';

const LOGIN_HELP = `Usage: mcp-lens login <server> [--no-browser] [--workspace DIR] [--config FILE] [--trust]

Signs in to a remote MCP server that needs an account (OAuth 2.1 with PKCE): opens the
authorization page in your browser (or prints its address), waits for it to come back to
http://127.0.0.1/callback on a free port, and keeps the tokens in ${oauthFilePath()}
(mode 0600). \`mcp-lens serve\` then uses them, refreshing them as they expire.

  --no-browser          only print the address (sign in from any browser on this machine)
${WORKSPACE_HELP}
`;

const LOGOUT_HELP = `Usage: mcp-lens logout <server> [--workspace DIR] [--config FILE]

Forgets the tokens and the registered client of a remote MCP server (in ${oauthFilePath()}).
`;

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...WORKSPACE_FLAGS,
      'no-browser': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export const login: CliCommand = {
  usage: 'login <server> [--no-browser] [--workspace DIR] [--config FILE] [--trust]',
  summary: 'sign in to a remote server that needs an account (OAuth)',
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help || positionals.length !== 1) {
      (values.help ? process.stdout : process.stderr).write(LOGIN_HELP);
      return values.help ? 0 : 2;
    }
    const name = positionals[0]!;
    const log = stderrLogger();
    const lens = await openLens({
      ...workspace(values),
      log,
      interactive: true,
      lightweight: true,
      signIn: { openBrowser: !values['no-browser'] },
    });
    try {
      await lens.signIn(name);
      const status = lens.servers().find((s) => s.name === name);
      if (status?.state !== 'ready')
        throw new Error(
          `${name} is ${status?.state ?? 'gone'} after signing in${status?.error ? `: ${status.error}` : ''}`,
        );
      process.stdout.write(`Signed in to ${escapeForDisplay(name)}: ${status.toolCount} tools.\n`);
      return 0;
    } catch (err) {
      process.stderr.write(`mcp-lens login: ${errorMessage(err)}\n`);
      return 1;
    } finally {
      await lens.close();
    }
  },
};

export const logout: CliCommand = {
  usage: 'logout <server> [--workspace DIR] [--config FILE]',
  summary: "forget a remote server's sign-in tokens",
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help || positionals.length !== 1) {
      (values.help ? process.stdout : process.stderr).write(LOGOUT_HELP);
      return values.help ? 0 : 2;
    }
    const name = positionals[0]!;
    const log = stderrLogger();
    const lens = await openLens({
      ...workspace(values),
      log,
      interactive: true,
      lightweight: true,
      signIn: { openBrowser: false },
    });
    try {
      await lens.signOut(name);
      process.stdout.write(`Signed out of ${escapeForDisplay(name)}.\n`);
      return 0;
    } catch (err) {
      process.stderr.write(`mcp-lens logout: ${errorMessage(err)}\n`);
      return 1;
    } finally {
      await lens.close();
    }
  },
};

function workspace(values: {
  workspace?: string | undefined;
  config?: string | undefined;
  trust?: boolean | undefined;
}) {
  return { workspace: values.workspace, config: values.config, trust: values.trust };
}
