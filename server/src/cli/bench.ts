/**
 * `mcp-lens bench`: tool-search quality, latency, tokens and memory on the shared datasets,
 * with the peers' reference searchers (bm25-reference, tfidf-reference) measured in the same
 * run on the same data.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allDatasetDirs, repoRoot } from '../bench/benchFiles';
import { loadDataset } from '../bench/dataset';
import { BENCH_MODES, modeFactory, type BenchMode } from '../bench/modes';
import { formatMarkdown, formatTable } from '../bench/report';
import { runPredictionBench } from '../bench/predict';
import { runBench, type BenchReport } from '../bench/runBench';
import { referenceFactories } from '../bench/searchers';
import { BENCH_SUMMARY, BENCH_USAGE } from './benchEntry';
import type { CliCommand } from './command';

const HELP = `mcp-lens bench --dataset DIR [--mode keyword|vector|hybrid] [--json] [--ollama-host URL] [--scale N] [--predict]
mcp-lens bench --all [--out FILE.md] [--mode ...] [--scale N]

  --dataset DIR   a folder with tools.json and queries.json (e.g. bench/datasets/toolbench)
  --all           every dataset under the bench folder (env MCP_LENS_BENCH_DIR, else bench/datasets
                  in the repo); writes a Markdown table (default bench-results.md at the repo root)
  --mode          MCP Lens search mode (default keyword); vector and hybrid need Ollama
  --scale N       also time MCP Lens on the catalog replicated to N tools
  --json          print one JSON document
  --predict       add the usage-prediction benchmark (server/src/bench/predict.ts)`;

export const bench: CliCommand = {
  usage: BENCH_USAGE,
  summary: BENCH_SUMMARY,
  async run(argv) {
    let args;
    try {
      args = parseArgs({
        args: argv,
        options: {
          dataset: { type: 'string' },
          mode: { type: 'string', default: 'keyword' },
          json: { type: 'boolean', default: false },
          'ollama-host': { type: 'string' },
          scale: { type: 'string' },
          all: { type: 'boolean', default: false },
          out: { type: 'string' },
          predict: { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h', default: false },
        },
        strict: true,
      }).values;
    } catch (err) {
      process.stderr.write(`mcp-lens bench: ${(err as Error).message}\n${HELP}\n`);
      return 2;
    }
    if (args.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const mode = args.mode as BenchMode;
    if (!BENCH_MODES.includes(mode)) return usageError(`unknown --mode "${args.mode}" (keyword, vector or hybrid)`);
    const scale = args.scale === undefined ? undefined : Number(args.scale);
    if (scale !== undefined && !(Number.isInteger(scale) && scale > 0)) return usageError(`--scale wants a positive integer, got "${args.scale}"`);
    const dirs = args.all ? allDatasetDirs() : args.dataset ? [resolve(args.dataset)] : [];
    if (dirs.length === 0) return usageError(args.all ? 'no datasets found (set MCP_LENS_BENCH_DIR)' : 'give --dataset DIR or --all');
    for (const dir of dirs) if (!existsSync(join(dir, 'tools.json'))) return usageError(`${dir}: no tools.json`);

    const factory = await modeFactory(mode, args['ollama-host']);
    if ('error' in factory) {
      process.stderr.write(`mcp-lens bench: ${factory.error}\n`);
      return 1;
    }
    const reports: BenchReport[] = [];
    for (const dir of dirs) {
      process.stderr.write(`bench: ${dir} (${mode})…\n`);
      const report = await runBench(loadDataset(dir), [factory, ...referenceFactories], scale);
      if (args.predict) report.prediction = await prediction(dir);
      reports.push(report);
      if (!args.json) process.stdout.write(`${formatTable(report)}\n\n`);
    }
    if (args.json) process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
    if (args.all) {
      const out = resolve(args.out ?? join(repoRoot(), 'bench-results.md'));
      writeFileSync(out, formatMarkdown(reports, `mcp-lens bench ${argv.join(' ')}`));
      process.stderr.write(`bench: wrote ${out}\n`);
    }
    return 0;
  },
};

/** The usage-prediction benchmark (server/src/bench/predict.ts, owned by the usage engineer). */
async function prediction(dir: string): Promise<unknown> {
  return runPredictionBench(dir);
}

function usageError(message: string): number {
  process.stderr.write(`mcp-lens bench: ${message}\n${HELP}\n`);
  return 2;
}
