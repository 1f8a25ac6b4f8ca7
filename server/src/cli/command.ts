/** The contract of one `mcp-lens` subcommand. */
export interface CliCommand {
  /** e.g. `tools [--config FILE] [--workspace DIR] [--json]` */
  usage: string;
  summary: string;
  /** Returns the process exit code. Results go to stdout, everything else to stderr. */
  run(argv: string[]): Promise<number>;
}
