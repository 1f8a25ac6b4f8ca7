/**
 * `mcp-lens bench` as the CLI sees it: its help line here, its code in a bundle of its own
 * (dist/bench.js, built from cli/bench.ts) loaded only when the command runs, so the CLI that
 * every other command starts carries no bench code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliCommand } from './command';

export const BENCH_USAGE =
  'bench --dataset DIR|--all [--mode M] [--embedder ollama|openai] [--json] [--scale N] [--per-query FILE] [--history SHARE [--wrong SHARES] [--seed N]]';
export const BENCH_SUMMARY = 'Measure tool search (recall, MRR, latency, tokens) against reference searchers';

export const benchEntry: CliCommand = {
  usage: BENCH_USAGE,
  summary: BENCH_SUMMARY,
  run: (argv) => loadBench().run(argv),
};

function loadBench(): CliCommand {
  // Beside the bundle (dist/cli.js → dist/bench.js), or the source module under tsx. A
  // computed path, so esbuild leaves the require to run time.
  const bundled = join(__dirname, 'bench.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(existsSync(bundled) ? bundled : join(__dirname, 'bench')) as { bench: CliCommand }).bench;
}
