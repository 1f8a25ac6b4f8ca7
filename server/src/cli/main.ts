/**
 * `mcp-lens` entry point. Each subcommand lives in its own module exporting `run`; this file
 * only dispatches. stdout carries results (or MCP messages for `serve`); everything else
 * goes to stderr.
 */
import '../heapFlags';
import { markLensProcess } from '../adapters/processProbe';
import { installStdoutGuard } from '../adapters/stdoutGuard';
import { o200kTokenizer } from '../adapters/tokens/o200kCounter';
import { useTokenCounter } from '../core/tokens';
import { benchEntry } from './benchEntry';
import type { CliCommand } from './command';
import { forget } from './forget';
import { audit } from './audit';
import { login, logout } from './login';
import { pullModel } from './pull';
import { search } from './search';
import { serve } from './serve';
import { stats } from './stats';
import { stderrLogger } from './stderrLogger';
import { tools } from './tools';
import { errorMessage } from '../core/errorMessage';
import { closestNames } from '../core/nameSuggestions';
import { escapeForDisplay } from '../../../protocol/untrustedText';
import { EXIT, exitCodeHelp } from './exitCodes';
import { LENS_VERSION } from '../core/version';

const COMMANDS: Record<string, CliCommand> = {
  tools,
  search,
  serve,
  stats,
  forget,
  audit,
  login,
  logout,
  bench: benchEntry,
  'pull-model': pullModel,
};

export function usage(): string {
  const lines = Object.values(COMMANDS).flatMap((c) => [`  mcp-lens ${c.usage}`, `      ${c.summary}`]);
  return [
    "mcp-lens: one optimizing MCP server in front of all of a workspace's MCP servers",
    '',
    'Usage:',
    ...lines,
    '  mcp-lens --help, -h',
    '      show this help',
    '  mcp-lens --version, -v',
    '      print the version',
    '',
    "Run `mcp-lens <command> --help` for a command's options.",
    '',
    ...exitCodeHelp(),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  // stdout carries results or MCP messages: a library's stray console.log must not land there.
  installStdoutGuard(stderrLogger());
  useTokenCounter(o200kTokenizer);
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${LENS_VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    const near = closestNames(name, Object.keys(COMMANDS));
    process.stderr.write(
      `mcp-lens: unknown command "${escapeForDisplay(name)}"${near.length ? `; did you mean ${near.join(', ')}?` : ''}\n` +
        `Commands: ${Object.keys(COMMANDS).join(', ')}. Run \`mcp-lens --help\` for more.\n`,
    );
    return EXIT.usage;
  }
  // `mcp-lens serve` in ps and /proc: what `stats` checks before it believes a gateway.json.
  markLensProcess(name);
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`mcp-lens: ${errorMessage(err)}\n`);
    process.exitCode = EXIT.failure;
  },
);
