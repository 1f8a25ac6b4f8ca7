/** `mcp-lens tools`: every server, its state and its tools, in one list. */
import { plural } from '../../../protocol/figureText';
import type { ServerStatus } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import type { CliCommand } from './command';
import { WORKSPACE_HELP, openLens, parseReportArgs } from './lensFromArgs';
import { stderrLogger } from './stderrLogger';
import { escapeForDisplay, oneLine } from '../../../protocol/untrustedText';

const HELP = `Usage: mcp-lens tools [--workspace DIR] [--config FILE] [--trust] [--json]

Starts every MCP server the workspace configures, waits for each to be ready or fail, and
prints each server with its state and tool count, and every tool.

${WORKSPACE_HELP}
  --json                one JSON document: { servers: [{ name, state, error?, tools: [...] }] }
`;

export const tools: CliCommand = {
  usage: 'tools [--workspace DIR] [--config FILE] [--trust] [--json]',
  summary: 'list every server, its state and its tools',
  async run(argv) {
    const values = parseReportArgs(argv, HELP);
    if (!values) return 0;
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
      const servers = lens.servers();
      const byServer = groupByServer(lens.tools());
      if (values.json) {
        const doc = {
          servers: servers.map((s) => ({
            name: s.name,
            state: s.state,
            ...(s.error ? { error: s.error } : {}),
            tools: (byServer.get(s.name) ?? []).map(toolJson),
          })),
        };
        process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
      } else {
        process.stdout.write(renderText(servers, byServer));
      }
      return 0;
    } finally {
      await lens.close();
    }
  },
};

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
    for (const t of list) lines.push(`  ${t.name.padEnd(width)}  ${oneLine(t.description).slice(0, 100)}`);
  }
  return lines.join('\n') + '\n';
}
