/** `mcp-lens pull-model`: downloads the embedding model into the local Ollama, with progress. */
import { DEFAULT_SETTINGS, normalizeOllamaHost, sanitizeSettings } from '../../../protocol/settings';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';
import type { PullProgress } from '../adapters/embed/embedder';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { errorMessage } from '../core/errorMessage';

const SPEC = {
  name: 'pull-model',
  summary: 'download the embedding model into the local Ollama',
  description: `Asks the local Ollama to download the embedding model MCP Lens uses for search by meaning (the same as \`ollama pull <model>\`). Progress goes to stderr.`,
  options: {
    host: { value: 'URL', help: `Ollama's address (default: $OLLAMA_HOST or ${DEFAULT_SETTINGS.ollama.host})` },
    model: { value: 'NAME', help: `embedding model (default: ${DEFAULT_SETTINGS.embedding.model})` },
  },
} as const satisfies CommandSpec<CliOptions>;

export const pullModel: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const settings = sanitizeSettings({}, process.env);
    const host = values.host ? normalizeOllamaHost(values.host) : settings.ollama.host;
    const model = values.model ?? settings.embedding.model;
    const embedder = new OllamaEmbedder({ host, model });
    const health = await embedder.probe();
    if (!health.reachable) {
      process.stderr.write(
        `mcp-lens: ${health.error ?? `Ollama unreachable at ${host}`}\nStart Ollama (https://ollama.com) and try again.\n`,
      );
      return 1;
    }
    try {
      await embedder.pull(progressPrinter());
    } catch (err) {
      process.stderr.write(`\nmcp-lens: ${errorMessage(err)}\n`);
      return 1;
    }
    process.stdout.write(`${model} is ready in Ollama at ${host}\n`);
    return 0;
  },
};

/** One line per status, the byte count updated in place on a terminal. */
function progressPrinter(): (p: PullProgress) => void {
  let last = '';
  return (p) => {
    const percent = p.total ? ` ${Math.floor(((p.completed ?? 0) / p.total) * 100)}%` : '';
    const line = `${p.status}${percent}`;
    if (line === last) return;
    const sameStep = last.startsWith(p.status) && process.stderr.isTTY;
    process.stderr.write(sameStep ? `\r${line}` : `${last ? '\n' : ''}${line}`);
    last = line;
    if (p.status === 'success') process.stderr.write('\n');
  };
}
