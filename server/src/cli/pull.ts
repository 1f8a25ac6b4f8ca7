/** `mcp-lens pull-model`: downloads the embedding model into the local Ollama, with progress. */
import { parseArgs } from 'node:util';
import { normalizeOllamaHost, sanitizeSettings } from '../../../protocol/settings';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';
import type { PullProgress } from '../adapters/embed/embedder';
import type { CliCommand } from './command';
import { errorMessage } from '../core/errorMessage';

const HELP = `Usage: mcp-lens pull-model [--host URL] [--model NAME]

Asks the local Ollama to download the embedding model MCP Lens uses for search by meaning
(the same as \`ollama pull <model>\`). Progress goes to stderr.

  --host URL     Ollama's address (default: $OLLAMA_HOST or http://127.0.0.1:11434)
  --model NAME   embedding model (default: nomic-embed-text)
`;

export const pullModel: CliCommand = {
  usage: 'pull-model [--host URL] [--model NAME]',
  summary: 'download the embedding model into the local Ollama',
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { host: { type: 'string' }, model: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
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
