/**
 * The exit codes of `mcp-lens`, one table: the code returns them, `mcp-lens --help` and the
 * README list them. A command prints its results even when it exits with an error code, so a
 * script gets both (`tools --json` with a server that failed still lists the others).
 */
export const EXIT = {
  /** Done. Some servers may have failed or wait for approval: stderr says which. */
  ok: 0,
  /** A failure while running: no server could start (each failed), a sign-in failed, a file could not be written. */
  failure: 1,
  /** The command line is wrong: an unknown command or option, a bad value, a server the workspace does not configure. */
  usage: 2,
  /** The configuration: a config file missing, unreadable or not valid JSON, or no MCP server configured at all. */
  config: 3,
  /** Nothing could start because every server waits for approval (no terminal to ask on, or the answer was no). */
  notApproved: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table as `--help` prints it. */
export function exitCodeHelp(): string[] {
  return [
    'Exit codes:',
    `  ${EXIT.ok}  done (servers that failed or wait for approval are named on stderr)`,
    `  ${EXIT.failure}  a failure while running: no server could start, a sign-in failed, a file could not be written`,
    `  ${EXIT.usage}  the command line is wrong: unknown command or option, bad value, unknown server name`,
    `  ${EXIT.config}  the configuration: a config file missing, unreadable or not valid JSON, or no server configured`,
    `  ${EXIT.notApproved}  nothing started: every server waits for approval (run in a terminal to approve, or --trust)`,
  ];
}
