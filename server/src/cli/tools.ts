/** `mcp-lens tools`: every server, its state and its tools, in one list. */
import { plural } from '../../../protocol/figureText';
import type { ConfigProblem, ServerStatus } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { WORKSPACE_OPTIONS, openLens, reportVerdict, verdictOf } from './lensFromArgs';
import { configuredServers } from './workspaceVerdict';
import { stderrLogger } from './stderrLogger';
import { cutAtWord, escapeForDisplay, oneLine } from '../../../protocol/untrustedText';

const SPEC = {
  name: 'tools',
  summary: 'list every server, its state and its tools',
  description:
    'Starts every MCP server the workspace configures, waits for each to be ready or fail, and prints each server with its state and tool count, and every tool.',
  options: {
    ...WORKSPACE_OPTIONS,
    json: {
      help: 'one JSON document: { servers: [{ name, state, error?, tools: [...] }], problems: [{ file, line?, column?, path, message }] }',
    },
  },
} as const satisfies CommandSpec<CliOptions>;

export const tools: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const log = stderrLogger();
    const lens = await openLens({
      workspace: values.workspace,
      config: values.config,
      trust: values.trust,
      log,
      interactive: true,
      lightweight: true,
    });
    try {
      // Rows that stand for a broken file or a pending tool filter are not servers: their
      // problems were logged, and the exit code says so.
      const servers = configuredServers(lens.servers());
      const byServer = groupByServer(lens.tools());
      if (values.json) {
        const doc = {
          servers: servers.map((s) => ({
            name: s.name,
            state: s.state,
            ...(s.error ? { error: s.error } : {}),
            tools: (byServer.get(s.name) ?? []).map(toolJson),
          })),
          problems: lens.configProblems().map(problemJson),
        };
        process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
      } else if (servers.length > 0) {
        process.stdout.write(renderText(servers, byServer));
      }
      return reportVerdict('tools', verdictOf(lens, values.config));
    } finally {
      await lens.close();
    }
  },
};

function problemJson(p: ConfigProblem) {
  return {
    severity: p.severity,
    file: p.file,
    ...(p.line !== undefined ? { line: p.line, column: p.column } : {}),
    path: p.path,
    message: p.message,
    ...(p.server !== undefined ? { server: p.server } : {}),
  };
}

function toolJson(t: CatalogTool) {
  return {
    name: t.name,
    server: t.server,
    originalName: t.originalName,
    description: t.description,
    inputSchema: t.inputSchema,
  };
}

function groupByServer(list: CatalogTool[]): Map<string, CatalogTool[]> {
  const m = new Map<string, CatalogTool[]>();
  for (const t of list) m.set(t.server, [...(m.get(t.server) ?? []), t]);
  return m;
}

function renderText(servers: ServerStatus[], byServer: Map<string, CatalogTool[]>): string {
  const lines: string[] = [];
  const total = [...byServer.values()].reduce((n, l) => n + l.length, 0);
  lines.push(`${plural(servers.length, 'server')}, ${plural(total, 'tool')}`);
  for (const s of servers) {
    const list = byServer.get(s.name) ?? [];
    lines.push('');
    // Server names come from the workspace's config: escaped, so none can rewrite the terminal.
    lines.push(
      `${escapeForDisplay(s.name)}  ${s.state}  ${plural(list.length, 'tool')}  [${s.transport}, ${escapeForDisplay(s.sourceFile)}]`,
    );
    if (s.error) lines.push(`  ! ${oneLine(s.error)}`);
    if (s.state === 'error') for (const l of s.stderrTail.slice(-5)) lines.push(`  stderr: ${oneLine(l)}`);
    const width = Math.min(48, Math.max(0, ...list.map((t) => t.name.length)));
    for (const t of list) lines.push(`  ${t.name.padEnd(width)}  ${cutAtWord(oneLine(t.description), 100)}`);
  }
  return lines.join('\n') + '\n';
}
