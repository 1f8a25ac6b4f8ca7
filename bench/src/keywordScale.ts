/**
 * How the keyword index's build cost grows with tools per server: the 2,220 toolbench tools as
 * they are (644 servers), then reassigned round-robin to 20, 5 and 1 servers. The sibling-tools
 * context field ties each tool to its server, so this is where a per-(tool × server vocabulary)
 * cost would show. One child process per case, so each case's peak RSS (VmHWM) is its own.
 *
 *   node --import tsx bench/src/keywordScale.ts [--dump DIR] [TOOLS_JSON]
 *
 * Prints a markdown table: build ms (best of 3), RSS added by the build, VmHWM, search p50/p99
 * over the toolbench queries, and a hash of every query's top 10 (keys and scores to 6
 * significant digits) so two runs can be compared for identical ranking. `--dump DIR` also
 * writes each case's top 10s as JSON for a closer diff.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { datasetDir } from './benchFiles';
import { catalogToolsOf } from './dataset';

/** 0 = the dataset's own servers. */
const SERVER_COUNTS = [0, 20, 5, 1];

interface CaseReport {
  servers: number;
  tools: number;
  build_ms: number;
  rss_added_mb: number;
  vm_hwm_mb: number;
  p50_ms: number;
  p99_ms: number;
  ranking_hash: string;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1048576);
}

function vmHwmMb(): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : 0;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** One case, in this (child) process: build, measure, search every query. */
function runCase(toolsFile: string, serverCount: number, dumpDir?: string): CaseReport {
  const raw = JSON.parse(readFileSync(toolsFile, 'utf8')) as Parameters<typeof catalogToolsOf>[0];
  const base = catalogToolsOf(raw);
  // Keys stay the dataset's, so rankings of different runs compare by key.
  const tools = serverCount === 0 ? base : base.map((t, i) => ({ ...t, server: `server${i % serverCount}` }));
  const queries = (
    JSON.parse(readFileSync(join(dirname(toolsFile), 'queries.json'), 'utf8')) as { query: string }[]
  ).map((q) => q.query);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  let index = new KeywordIndex(tools);
  const rssAfter = process.memoryUsage().rss;
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    index = new KeywordIndex(tools);
    best = Math.min(best, performance.now() - start);
  }
  const times: number[] = [];
  const hash = createHash('sha256');
  const dump: { query: string; top: [string, number][] }[] = [];
  for (const query of queries) {
    const start = performance.now();
    const hits = index.searchSync(query, { limit: 10 });
    times.push(performance.now() - start);
    const top = hits.map((h): [string, number] => [h.key, h.score]);
    hash.update(`${query}\n${top.map(([k, s]) => `${k}=${s.toPrecision(6)}`).join('\n')}\n`);
    dump.push({ query, top });
  }
  if (dumpDir) writeFileSync(join(dumpDir, `keywordScale-${serverCount || 'dataset'}.json`), JSON.stringify(dump));
  times.sort((a, b) => a - b);
  return {
    servers: serverCount === 0 ? new Set(tools.map((t) => t.server)).size : serverCount,
    tools: tools.length,
    build_ms: Math.round(best * 10) / 10,
    rss_added_mb: mb(rssAfter - rssBefore),
    vm_hwm_mb: vmHwmMb(),
    p50_ms: Math.round(quantile(times, 0.5) * 1000) / 1000,
    p99_ms: Math.round(quantile(times, 0.99) * 1000) / 1000,
    ranking_hash: hash.digest('hex').slice(0, 12),
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const dumpAt = args.indexOf('--dump');
  const dumpDir = dumpAt >= 0 ? args.splice(dumpAt, 2)[1] : undefined;
  const caseAt = args.indexOf('--case');
  if (caseAt >= 0) {
    const serverCount = Number(args.splice(caseAt, 2)[1]);
    process.stdout.write(
      `${JSON.stringify(runCase(args[0] ?? join(datasetDir('toolbench'), 'tools.json'), serverCount, dumpDir))}\n`,
    );
    return;
  }
  const toolsFile = args[0] ?? join(datasetDir('toolbench'), 'tools.json');
  const rows = SERVER_COUNTS.map((n) => {
    const child = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        '--expose-gc',
        process.argv[1],
        '--case',
        String(n),
        ...(dumpDir ? ['--dump', dumpDir] : []),
        toolsFile,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    if (child.status !== 0) throw new Error(`keywordScale case ${n}: exit ${child.status}: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop()!) as CaseReport;
  });
  const lines = [
    '| servers | tools | build ms (best of 3) | RSS added MB | VmHWM MB | search p50 ms | p99 ms | top-10 hash |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.servers} | ${r.tools} | ${r.build_ms} | ${r.rss_added_mb} | ${r.vm_hwm_mb} | ${r.p50_ms} | ${r.p99_ms} | ${r.ranking_hash} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
