/**
 * What a one-shot command (`tools`, `search`, `stats`, `login`) makes of the workspace it
 * opened, as an exit code (exitCodes.ts) and the one line that says why: a config file that
 * cannot be used, no server configured (and where it looked), nothing started because every
 * server waits for approval, or every server failed. Partial failure is not an error: the
 * servers that failed are listed with their reason, and the others answer.
 */
import type { ConfigProblem, ServerStatus } from '../../../protocol/model';
import { cutAtWord, escapeForDisplay } from '../../../protocol/untrustedText';
import { closestNames } from '../core/nameSuggestions';
import { EXIT, type ExitCode } from './exitCodes';

export interface WorkspaceFacts {
  /** Every row of `Lens.servers()` (config-file rows included: they are told apart here). */
  servers: readonly ServerStatus[];
  problems: readonly ConfigProblem[];
  /** Where configuration was looked for, as a person reads it (for "no server configured"). */
  looked: readonly string[];
  /** The workspace folder. */
  workspace: string;
}

export interface Verdict {
  code: ExitCode;
  /** Why, in one line; absent when the code is 0. */
  message?: string;
  /** Some server answers (or will): a command still has something to show. */
  usable: boolean;
}

/** The servers a person configured: not the rows that stand for a broken file or a pending tool filter. */
export function configuredServers(servers: readonly ServerStatus[]): ServerStatus[] {
  return servers.filter((s) => !s.configFile);
}

/** Problems with a whole file (not found, unreadable, not valid JSON): nothing in it was read. */
export function fileProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return problems.filter((p) => p.severity === 'error' && p.path === '' && p.server === undefined);
}

/** States in which a server answers or will: running, starting, or left stopped on purpose (its tools cached). */
const USABLE: ReadonlySet<ServerStatus['state']> = new Set(['ready', 'starting', 'idle', 'stopped']);

export function workspaceVerdict(facts: WorkspaceFacts): Verdict {
  const servers = configuredServers(facts.servers);
  const usable = servers.some((s) => USABLE.has(s.state));
  const broken = fileProblems(facts.problems);
  if (broken.length > 0) {
    const files = broken.map((p) => escapeForDisplay(p.file)).join(', ');
    const what = broken.length === 1 ? 'a config file' : `${broken.length} config files`;
    return { code: EXIT.config, message: `${what} could not be used (${files}; see above)`, usable };
  }
  if (servers.length === 0) {
    const where = `${escapeForDisplay(facts.workspace)}: looked in ${listText(facts.looked)}`;
    return { code: EXIT.config, message: `no MCP server configured in ${where}`, usable };
  }
  if (usable) return { code: EXIT.ok, usable };
  const waiting = servers.filter((s) => s.state === 'awaiting-approval').map((s) => escapeForDisplay(s.name));
  if (waiting.length > 0) {
    // Worded for both a run without a terminal and a terminal where the answer was no.
    const verb = waiting.length === 1 ? 'waits' : 'wait';
    const how = 'approve on a terminal when `mcp-lens tools` asks, or pass --trust';
    return {
      code: EXIT.notApproved,
      message: `no server started: ${waiting.join(', ')} ${verb} for approval (${how})`,
      usable,
    };
  }
  if (servers.every((s) => s.state === 'disabled'))
    return {
      code: EXIT.config,
      message: 'no server can start: every entry of the configuration has an error (see above)',
      usable,
    };
  return { code: EXIT.failure, message: 'no server started: every one failed (see above)', usable };
}

/**
 * Undefined when `name` is a configured server; else the error, naming the close names and
 * the servers there are (at most 20).
 */
export function unknownServerMessage(name: string, servers: readonly ServerStatus[]): string | undefined {
  const names = configuredServers(servers).map((s) => s.name);
  if (names.includes(name)) return undefined;
  const shown = cutAtWord(escapeForDisplay(name), 100);
  if (names.length === 0) return `unknown server "${shown}": the workspace configures no server`;
  const near = closestNames(name, names);
  const listed =
    names.slice(0, 20).map(escapeForDisplay).join(', ') + (names.length > 20 ? `, … (${names.length})` : '');
  const guess = near.length ? ` (did you mean ${near.map(escapeForDisplay).join(', ')}?)` : '';
  return `unknown server "${shown}"${guess}; the workspace's servers: ${listed}`;
}

/** "a, b and c". */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? 'nothing') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
