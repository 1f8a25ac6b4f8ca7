/** `mcp-lens search "query"`: ranked tools from every server, with scores and why each matched. */
import { parseArgs } from 'node:util';
import { plural } from '../../../protocol/figureText';
import type { SearchResponse } from '../../../protocol/model';
import type { CliCommand } from './command';
import { REPORT_FLAGS, WORKSPACE_FLAGS, WORKSPACE_HELP, openLens } from './lensFromArgs';
import { noMatchLines, shown } from './noMatchText';
import { stderrLogger } from './stderrLogger';
import { escapeForDisplay, oneLine } from '../../../protocol/untrustedText';

const HELP = `Usage: mcp-lens search QUERY [--limit N] [--server NAME] [--json] [--workspace DIR] [--config FILE] [--trust]

Searches the tools of every server in the workspace (keyword ranking, plus meaning when Ollama
is available) and prints the best matches with their scores and why each matched.

  --limit, -n N         how many results (default 8, max 50)
  --server NAME         only this server's tools
  --keywords WORDS      extra comma-separated keywords
  --json                print the SearchResponse as JSON
  --fresh               start the servers and list their tools now, even if the catalog
                        cached by the last run still matches the configuration
${WORKSPACE_HELP}
`;

export const search: CliCommand = {
  usage: 'search QUERY [--limit N] [--server NAME] [--json]',
  summary: 'search the tools of every server',
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...WORKSPACE_FLAGS,
        limit: { type: 'string', short: 'n' },
        server: { type: 'string' },
        keywords: { type: 'string' },
        ...REPORT_FLAGS,
        fresh: { type: 'boolean', default: false },
      },
    });
    if (values.help || positionals.length === 0) {
      process.stdout.write(HELP);
      return values.help ? 0 : 2;
    }
    const query = positionals.join(' ');
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 50)) {
      process.stderr.write(`mcp-lens search: --limit must be an integer from 1 to 50, got "${values.limit}"\n`);
      return 2;
    }
    const log = stderrLogger();
    const lens = await openLens({
      workspace: values.workspace,
      config: values.config,
      trust: values.trust,
      log,
      interactive: true,
      preferCachedCatalog: !values.fresh,
    });
    const source = lens.catalogSource();
    if (source.kind === 'cached') {
      const failed = source.failed.length ? `; not retried, as they failed then: ${source.failed.join(', ')}` : '';
      process.stderr.write(
        `(tools of ${source.servers.join(', ')} as listed at ${new Date(source.writtenAt).toLocaleString()}; servers not started — --fresh lists them again${failed})\n`,
      );
    }
    try {
      const request: Parameters<typeof lens.search>[0] = { query };
      if (limit !== undefined) request.limit = limit;
      if (values.server) request.server = values.server;
      if (values.keywords)
        request.keywords = values.keywords
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean);
      const response = await lens.search(request);
      process.stdout.write(values.json ? JSON.stringify(response, null, 2) + '\n' : render(response));
      return 0;
    } finally {
      await lens.close();
    }
  },
};

function render(r: SearchResponse): string {
  const lines = [`${plural(r.hits.length, 'result')} for "${r.query}" in ${r.tookMs.toFixed(1)} ms — ${r.mode.label}`];
  r.hits.forEach((h, i) => {
    lines.push(
      `${String(i + 1).padStart(2)}. ${h.name}  (${escapeForDisplay(h.server)})  score ${h.score.toFixed(3)}  [${h.signals.join('+')}]`,
    );
    lines.push(`    ${oneLine(h.description).slice(0, 140)}`);
    lines.push(`    why: ${oneLine(h.why)}`);
  });
  if (r.starting?.length) lines.push(`still starting, so not searched yet: ${r.starting.map(shown).join(', ')}`);
  if (r.noMatch) lines.push(...noMatchLines(r.noMatch));
  return lines.join('\n') + '\n';
}
