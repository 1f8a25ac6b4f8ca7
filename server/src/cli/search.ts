/** `mcp-lens search "query"`: ranked tools from every server, with scores and why each matched. */
import { plural } from '../../../protocol/figureText';
import { DEFAULT_SETTINGS } from '../../../protocol/settings';
import type { SearchResponse } from '../../../protocol/model';
import type { CliCommand } from './command';
import { MAX_LIMIT } from '../gateway/metaToolArgs';
import { commandUsage, parseCommand, usageError, type CliOptions, type CommandSpec } from './commandLine';
import { WORKSPACE_OPTIONS, openLens, reportVerdict, verdictOf } from './lensFromArgs';
import { noMatchLines, shown } from './noMatchText';
import { stderrLogger } from './stderrLogger';
import { cutAtWord, escapeForDisplay, oneLine } from '../../../protocol/untrustedText';
import { unknownServerMessage } from './workspaceVerdict';

const SPEC = {
  name: 'search',
  args: 'QUERY',
  positionals: { min: 1, max: Infinity },
  summary: 'search the tools of every server',
  description:
    'Searches the tools of every server in the workspace (keyword ranking, plus meaning when Ollama is available) and prints the best matches with their scores and why each matched.',
  options: {
    limit: {
      short: 'n',
      value: 'N',
      integer: { min: 1, max: MAX_LIMIT },
      help: `how many results (default: the setting mcpLens.search.defaultLimit, ${DEFAULT_SETTINGS.search.defaultLimit} unless the workspace sets it; at most ${MAX_LIMIT})`,
    },
    server: { value: 'NAME', help: "only this server's tools" },
    keywords: { value: 'WORDS', help: 'extra comma-separated keywords' },
    json: { help: 'print the SearchResponse as JSON' },
    fresh: {
      help: 'start the servers and list their tools now, even if the catalog cached by the last run still matches the configuration',
    },
    ...WORKSPACE_OPTIONS,
  },
} as const satisfies CommandSpec<CliOptions>;

export const search: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values, positionals } = parsed;
    const log = stderrLogger();
    const lens = await openLens({
      workspace: values.workspace,
      config: values.config,
      trust: values.trust,
      log,
      interactive: true,
      preferCachedCatalog: !values.fresh,
    });
    try {
      const verdict = verdictOf(lens, values.config);
      if (!verdict.usable) return reportVerdict('search', verdict);
      const unknown = values.server === undefined ? undefined : unknownServerMessage(values.server, lens.servers());
      if (unknown) return usageError('search', unknown).exit;
      const source = lens.catalogSource();
      if (source.kind === 'cached') {
        const failed = source.failed.length ? `; not retried, as they failed then: ${source.failed.join(', ')}` : '';
        process.stderr.write(
          `(tools of ${source.servers.join(', ')} as listed at ${new Date(source.writtenAt).toLocaleString()}; servers not started — --fresh lists them again${failed})\n`,
        );
      }
      const request: Parameters<typeof lens.search>[0] = { query: positionals.join(' ') };
      if (values.limit !== undefined) request.limit = values.limit;
      if (values.server !== undefined) request.server = values.server;
      if (values.keywords)
        request.keywords = values.keywords
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean);
      const response = await lens.search(request);
      process.stdout.write(values.json ? JSON.stringify(response, null, 2) + '\n' : render(response));
      return reportVerdict('search', verdict);
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
    lines.push(`    ${cutAtWord(oneLine(h.description), 140)}`);
    lines.push(`    why: ${oneLine(h.why)}`);
  });
  if (r.starting?.length) lines.push(`still starting, so not searched yet: ${r.starting.map(shown).join(', ')}`);
  if (r.noMatch) lines.push(...noMatchLines(r.noMatch));
  return lines.join('\n') + '\n';
}
