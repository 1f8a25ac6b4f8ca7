/**
 * `mcp-lens bench` as the CLI sees it: the one seam between the product and the benches. The
 * command itself (its options, help and run) is the bench's, `bench/src/benchCommand.ts`, built
 * into a bundle of its own (dist/bench.js) and loaded by path only when the command runs: no
 * product module imports bench code (lint), and every other command starts without it. Only
 * the line `mcp-lens --help` lists is declared here, so the listing loads nothing.
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
  // Beside the CLI's bundle (dist/cliMain.js → dist/bench.js), or, run from source under tsx,
  // the bench's module. Computed paths, so esbuild leaves the require to run time.
  const bundled = join(__dirname, 'bench.js');
  const source = join(__dirname, '..', '..', '..', 'bench', 'src', 'benchCommand.ts');
  const file = existsSync(bundled) ? bundled : existsSync(source) ? source : undefined;
  if (file === undefined) throw new Error(`the bench bundle ${bundled} is missing (build it: node esbuild.mjs bench)`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(file) as { bench: CliCommand }).bench;
}
