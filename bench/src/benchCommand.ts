/**
 * `mcp-lens bench`: tool-search quality, latency, tokens and memory on the shared datasets,
 * with the peers' reference searchers (bm25-reference, tfidf-reference) measured in the same
 * run on the same data. The entry of dist/bench.js, which the CLI loads by path for this
 * command only (server/src/cli/benchEntry.ts declares the line `mcp-lens --help` shows).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allDatasetDirs, benchResultsFile, datasetToolsFile } from './benchFiles';
import { loadDataset } from './dataset';
import { writeSection } from './markdownSection';
import { lensFactories } from './modes';
import { belowReference, formatMarkdown, formatTable, REFERENCE_SEARCHER } from './report';
import { runPredictionBench } from './predict';
import { runBench, type BenchReport, type PerQueryRow } from './runBench';
import { runReplaySeeds, type ReplayReport, type ReplayRun } from './replay';
import { formatReplayMarkdown, formatReplayTable } from './replayReport';
import { referenceFactories } from './searchers';
import { formatChanges, top1Changes, type Top1Changes } from './topChanges';
import { lensModeOptions, SEMANTIC_HELP, SEMANTIC_OPTIONS } from './semanticOptions';
import { BENCH_SUMMARY, BENCH_USAGE } from '../../server/src/cli/benchEntry';
import type { CliCommand } from '../../server/src/cli/command';

const HELP = `mcp-lens bench --dataset DIR [--mode keyword|vector|hybrid] [--json] [--ollama-host URL] [--scale N] [--predict] [--per-query FILE]
mcp-lens bench --all [--out FILE.md] [--mode ...] [--scale N] [--per-query FILE]
mcp-lens bench --dataset DIR|--all --history SHARE [--wrong SHARES] [--noticed SHARE] [--seed N] [--seeds K] [--json] [--out FILE.md]
mcp-lens bench --dataset DIR|--all --embedder ollama|openai [--model NAME] [--ollama-host URL | --embed-url URL] [--fusion-yield X] [--show-changes]

  --dataset DIR     a folder with tools.json and queries.json (e.g. bench/datasets/toolbench)
  --all             every dataset under the bench folder (env MCP_LENS_BENCH_DIR, else bench/datasets
                    in the repo); writes its Markdown section into --out FILE, else bench-results.md:
                    the repo's when run inside the repo's checkout, else the working folder's
  --mode            MCP Lens search mode (default keyword; with --embedder all three); vector
                    and hybrid need an embedder (Ollama unless --embedder says otherwise)
  --ollama-host URL the Ollama to embed with (default http://127.0.0.1:11434)
  --scale N         also time MCP Lens on the catalog replicated to N tools
  --json            print one JSON document
  --predict         add the usage-prediction benchmark (bench/src/predict.ts)
  --per-query FILE  write every request's top 10 from every searcher, one JSON object a line:
                    {"dataset", "id", "query", "kind"?, "half": "dev"|"held-out", "gold": [key],
                     "gold_alternatives"?, "top10": {searcher: [key, ...]},
                     "first_gold_rank": {searcher: rank 1-10 | null}}; with several modes,
                    MCP Lens's vector and hybrid lists are "mcp-lens/vector", "mcp-lens/hybrid"

Search learning, by replay (bench/src/replay.ts), keyword mode:
  --history SHARE   feed this share (0-1) of each tool's requests as find_tools → call sessions to
                    search learning, then rank the rest with and without what it learned
  --wrong SHARES    comma-separated shares of history sessions that call a wrong tool, one run each
                    (default 0,0.1,0.3; a wrong call is the first hit when wrong, else another hit)
  --noticed SHARE   share of the wrong calls that fail or are followed by a quick re-search and the
                    right tool (default 0: silent; --all adds a 30% run with half of them noticed)
  --seed N          the split's and the wrong calls' seed (default 1)
  --seeds K         report the mean over seeds N to N+K-1 (default 1)
  With --all, writes the "learning" section of the Markdown file.

Every searcher gets recall@1/@5/@10, MRR@10 and complete@10 on the whole set, per request kind
where the set labels kinds, and per half of the keyword config's dev/held-out split. A line
"warning: SET: MCP Lens ... is below ${REFERENCE_SEARCHER} at ..." goes to stderr for every set
where MCP Lens scores below plain BM25 at recall@1 or MRR@10.

${SEMANTIC_HELP}`;

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
          mode: { type: 'string' },
          json: { type: 'boolean', default: false },
          'ollama-host': { type: 'string' },
          scale: { type: 'string' },
          all: { type: 'boolean', default: false },
          out: { type: 'string' },
          predict: { type: 'boolean', default: false },
          'per-query': { type: 'string' },
          history: { type: 'string' },
          wrong: { type: 'string' },
          noticed: { type: 'string' },
          seed: { type: 'string' },
          seeds: { type: 'string' },
          help: { type: 'boolean', short: 'h', default: false },
          ...SEMANTIC_OPTIONS,
        },
        strict: true,
      }).values;
    } catch (err) {
      return usageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
    }
    if (args.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const scale = args.scale === undefined ? undefined : Number(args.scale);
    if (scale !== undefined && !(Number.isInteger(scale) && scale > 0))
      return usageError(`--scale wants a positive integer, got "${args.scale}"`);
    const dirs = args.all ? allDatasetDirs() : args.dataset ? [resolve(args.dataset)] : [];
    if (dirs.length === 0)
      return usageError(args.all ? 'no datasets found (set MCP_LENS_BENCH_DIR)' : 'give --dataset DIR or --all');
    for (const dir of dirs)
      if (datasetToolsFile(dir) === undefined) return usageError(`${dir}: no tools.json (nor tools_from in meta.json)`);
    if (args.history !== undefined) {
      const semantic = (args.mode !== undefined && args.mode !== 'keyword') || args.embedder !== undefined;
      return semantic
        ? usageError('--history replays keyword search only (no --mode, no --embedder)')
        : replay(dirs, args, argv);
    }
    for (const flag of ['wrong', 'noticed', 'seed', 'seeds'] as const)
      if (args[flag] !== undefined) return usageError(`--${flag} needs --history`);

    const lens = await lensFactories(lensModeOptions(args, process.env));
    if ('error' in lens) {
      if (lens.usage) return usageError(lens.error);
      process.stderr.write(`mcp-lens bench: ${lens.error}\n`);
      return 1;
    }
    const mode = lens.modes.join(', ');
    const showChanges = args['show-changes'] ? { from: 'mcp-lens', to: 'mcp-lens/hybrid' } : undefined;
    if (showChanges && !(lens.modes.includes('keyword') && lens.modes.includes('hybrid'))) {
      return usageError('--show-changes compares keyword and hybrid mode: give --embedder without --mode');
    }
    let perQuery: number | undefined;
    if (args['per-query'] !== undefined) {
      try {
        perQuery = openSync(resolve(args['per-query']), 'w');
      } catch (err) {
        process.stderr.write(`mcp-lens bench: --per-query ${args['per-query']}: ${(err as Error).message}\n`);
        return 1;
      }
    }
    const writeRows =
      perQuery === undefined
        ? undefined
        : (rows: PerQueryRow[]) => writeSync(perQuery, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const reports: BenchReport[] = [];
    const loadBefore = loadavg()[0]!;
    try {
      for (const dir of dirs) {
        process.stderr.write(`bench: ${dir} (${mode})…\n`);
        let changes: Top1Changes | undefined;
        const onRows = (rows: PerQueryRow[]) => {
          writeRows?.(rows);
          if (showChanges) changes = top1Changes(rows, showChanges.from, showChanges.to);
        };
        const report = await runBench(loadDataset(dir), [...lens.factories, ...referenceFactories], {
          ...(scale !== undefined ? { scale } : {}),
          ...(writeRows || showChanges ? { perQuery: onRows } : {}),
        });
        if (args.predict) report.prediction = await prediction(dir);
        if (changes) report.top1_changes = changes;
        reports.push(report);
        if (!args.json)
          process.stdout.write(`${formatTable(report)}\n\n${changes ? `${formatChanges(changes)}\n\n` : ''}`);
      }
    } finally {
      if (perQuery !== undefined) closeSync(perQuery);
    }
    // After every table, so the warnings are the last thing a person reads.
    for (const line of reports.flatMap(belowReference)) process.stderr.write(`${line}\n`);
    if (perQuery !== undefined) process.stderr.write(`bench: wrote ${resolve(args['per-query']!)}\n`);
    if (args.json) process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
    if (args.all) {
      const out = benchResultsFile(args.out);
      // Its own section: the other benches' sections of the same file (code mode, start-up, find_tools) stay.
      const machine = `Machine: ${availableParallelism()} cores, load average ${loadBefore.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end (latency and memory figures depend on it; the rankings do not).`;
      writeSection(out, 'search', formatMarkdown(reports, `mcp-lens bench ${argv.join(' ')}`, machine));
      process.stderr.write(`bench: wrote the search section of ${out}\n`);
    }
    return 0;
  },
};

interface ReplayArgs {
  history?: string | undefined;
  wrong?: string | undefined;
  noticed?: string | undefined;
  seed?: string | undefined;
  seeds?: string | undefined;
  all?: boolean | undefined;
  json?: boolean | undefined;
  out?: string | undefined;
}

/** `--history`: the search-learning replay on each set (replay.ts). */
async function replay(dirs: string[], args: ReplayArgs, argv: string[]): Promise<number> {
  const share = (flag: string, text: string): number | string => {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 1
      ? n
      : `--${flag} wants a share between 0 and 1, got "${text}"`;
  };
  const history = share('history', args.history!);
  if (typeof history === 'string') return usageError(history);
  const wrong = (args.wrong ?? '0,0.1,0.3').split(',').map((w) => share('wrong', w));
  const badWrong = wrong.find((w) => typeof w === 'string');
  if (badWrong !== undefined) return usageError(badWrong as string);
  const noticed = share('noticed', args.noticed ?? '0');
  if (typeof noticed === 'string') return usageError(noticed);
  const seed = Number(args.seed ?? '1');
  const seeds = Number(args.seeds ?? '1');
  if (!Number.isInteger(seed)) return usageError(`--seed wants an integer, got "${args.seed}"`);
  if (!(Number.isInteger(seeds) && seeds > 0 && seeds <= 100))
    return usageError(`--seeds wants an integer from 1 to 100, got "${args.seeds}"`);
  const runs: ReplayRun[] = (wrong as number[]).map((w) => ({ wrong: w, noticed }));
  // The guard's own run: wrong calls that tell on themselves, half of them.
  if (args.all && args.wrong === undefined && args.noticed === undefined) runs.push({ wrong: 0.3, noticed: 0.5 });
  const reports: ReplayReport[] = [];
  for (const dir of dirs) {
    process.stderr.write(`bench: ${dir} (search learning replay)…\n`);
    const report = await runReplaySeeds(loadDataset(dir), { history, runs, seed, extra: true }, seeds);
    reports.push(report);
    if (!args.json) process.stdout.write(`${formatReplayTable(report)}\n\n`);
  }
  if (args.json) process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  if (args.all) {
    const out = benchResultsFile(args.out);
    writeSection(out, 'learning', formatReplayMarkdown(reports, `mcp-lens bench ${argv.join(' ')}`));
    process.stderr.write(`bench: wrote the learning section of ${out}\n`);
  }
  return 0;
}

/** The usage-prediction benchmark (bench/src/predict.ts, owned by the usage engineer). */
async function prediction(dir: string): Promise<unknown> {
  return runPredictionBench(dir);
}

/** One line and the way to the options (the whole help buries the line that matters). */
function usageError(message: string): number {
  process.stderr.write(`mcp-lens bench: ${message}\nRun \`mcp-lens bench --help\` for its options.\n`);
  return 2;
}
