/**
 * `mcp-lens audit`: what a team's MCP Lens recorded of every tool call (gateway/callAudit.ts),
 * newest first, narrowed by person, server, tool and time. It reads the audit the team
 * configuration names (`--team FILE`, as `serve --team` writes it) or a JSON Lines file named
 * with `--file`. Argument values appear only where the team configuration keeps them.
 */
import { readTeamConfig } from '../adapters/config/teamConfigFile';
import type { AuditQuery, AuditRecord } from '../adapters/audit/auditSink';
import { JsonlAuditSink, MAX_AUDIT_LIMIT } from '../adapters/audit/jsonlAuditSink';
import { errorMessage } from '../core/errorMessage';
import { escapeForDisplay } from '../../../protocol/untrustedText';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { EXIT } from './exitCodes';

const SPEC = {
  name: 'audit',
  summary: "list the tool calls a team's MCP Lens recorded",
  description:
    'Lists the tool calls `serve --http --team` recorded (who, server and tool, argument fingerprint, outcome, duration, result tokens, replica), newest first.',
  options: {
    team: { value: 'FILE', help: 'the team configuration: its audit file is read' },
    file: { value: 'FILE', help: 'an audit JSON Lines file to read instead' },
    person: { value: 'P', help: "only this person's calls: their principal id, name (email) or subject" },
    server: { value: 'S', help: 'only calls to this server' },
    tool: { value: 'T', help: "only calls of this tool (its server's own name for it)" },
    since: { value: 'ISO', help: 'only calls made at or after this time (ISO 8601)' },
    until: { value: 'ISO', help: 'only calls made at or before this time (ISO 8601)' },
    limit: { value: 'N', integer: { min: 1, max: MAX_AUDIT_LIMIT }, help: 'at most N calls (default 100)' },
    json: { help: 'one JSON record a line (AuditRecord)' },
  },
} as const satisfies CommandSpec<CliOptions>;

export const audit: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const fail = (code: number, message: string) => (process.stderr.write(`mcp-lens audit: ${message}\n`), code);
    if ((values.team === undefined) === (values.file === undefined))
      return fail(EXIT.usage, 'name the audit with --team FILE (the team configuration) or --file FILE');
    for (const key of ['since', 'until'] as const) {
      const v = values[key];
      if (v !== undefined && Number.isNaN(Date.parse(v)))
        return fail(EXIT.usage, `--${key} must be an ISO 8601 time, e.g. 2026-11-29T08:00:00Z`);
    }
    let file: string;
    try {
      file = values.file ?? readTeamConfig(values.team!).audit.file!;
    } catch (err) {
      return fail(EXIT.config, errorMessage(err));
    }
    const query: AuditQuery = {};
    if (values.person !== undefined) query.principal = values.person;
    if (values.server !== undefined) query.server = values.server;
    if (values.tool !== undefined) query.tool = values.tool;
    if (values.since !== undefined) query.since = values.since;
    if (values.until !== undefined) query.until = values.until;
    if (values.limit !== undefined) query.limit = values.limit;
    const sink = new JsonlAuditSink(file);
    let records: AuditRecord[];
    try {
      records = await sink.query(query);
    } catch (err) {
      return fail(EXIT.failure, `${file}: ${errorMessage(err)}`);
    } finally {
      await sink.close();
    }
    process.stdout.write(values.json ? records.map((r) => JSON.stringify(r) + '\n').join('') : table(records, file));
    return EXIT.ok;
  },
};

/** One line a call; names from tokens and servers are untrusted text, escaped. */
function table(records: AuditRecord[], file: string): string {
  if (records.length === 0) return `No recorded call matches (${file}).\n`;
  const lines = records.map((r) =>
    [
      r.at,
      escapeForDisplay(r.person ?? r.principal).slice(0, 40),
      r.via,
      `${escapeForDisplay(r.server)}/${escapeForDisplay(r.tool)}`,
      r.outcome,
      `${r.durationMs} ms`,
      `${r.resultTokens} tokens`,
      `args ${r.argsFingerprint}`,
      r.replica,
    ].join('  '),
  );
  return lines.join('\n') + '\n';
}
