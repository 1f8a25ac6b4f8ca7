/** Rendering bench reports: an aligned table for people, Markdown for bench-results.md. */
import type { RetrievalMetrics } from './metrics';
import type { BenchReport, SearcherResult, SubsetMetrics } from './runBench';

interface HitRates {
  'hit@3': number;
  'hit@5': number;
  'hit@10': number;
}
interface PredictionFigures extends HitRates {
  baseline: HitRates;
}

const COLUMNS: { title: string; value: (r: SearcherResult) => string }[] = [
  { title: 'searcher', value: (r) => r.searcher },
  { title: 'mode', value: (r) => (r.embedder === 'none' ? r.mode : `${r.mode} (${r.embedder})`) },
  { title: 'R@1', value: (r) => r['recall@1'].toFixed(3) },
  { title: 'R@5', value: (r) => r['recall@5'].toFixed(3) },
  { title: 'R@10', value: (r) => r['recall@10'].toFixed(3) },
  { title: 'MRR@10', value: (r) => r['mrr@10'].toFixed(3) },
  { title: 'C@10', value: (r) => r['complete@10'].toFixed(3) },
  { title: 'p50 ms', value: (r) => r.latency_ms.p50.toFixed(3) },
  { title: 'p99 ms', value: (r) => r.latency_ms.p99.toFixed(3) },
  { title: 'top5 tok', value: (r) => String(r.tokens.top5_avg) },
];

/** The searcher MCP Lens must never fall below (issue #12): a plain BM25 run in the same process on the same data. */
export const REFERENCE_SEARCHER = 'bm25-reference';
/** What "below the reference" is judged on. */
const GUARDED: (keyof RetrievalMetrics)[] = ['recall@1', 'mrr@10'];

/**
 * One warning line when MCP Lens scores below the reference at recall@1 or MRR@10 on this set
 * (compared as reported, to 3 decimals); none when it does not, or when either did not run.
 */
export function belowReference(report: BenchReport): string[] {
  const reference = report.results.find((r) => r.searcher === REFERENCE_SEARCHER);
  const lens = report.results.find((r) => r.searcher === 'mcp-lens');
  if (!reference || !lens) return [];
  const worse = GUARDED.filter((m) => lens[m] < reference[m]).map(
    (m) => `${m} (${lens[m].toFixed(3)} < ${reference[m].toFixed(3)})`,
  );
  return worse.length
    ? [`warning: ${report.dataset}: MCP Lens (${lens.mode}) is below ${REFERENCE_SEARCHER} at ${worse.join(' and ')}`]
    : [];
}

const METRIC_COLUMNS: { title: string; key: keyof RetrievalMetrics }[] = [
  { title: 'R@1', key: 'recall@1' },
  { title: 'R@5', key: 'recall@5' },
  { title: 'R@10', key: 'recall@10' },
  { title: 'MRR@10', key: 'mrr@10' },
  { title: 'C@10', key: 'complete@10' },
];

/** A searcher as the per-subset tables name it: with its mode when that is not keyword (several MCP Lens modes may run at once). */
function searcherLabel(r: SearcherResult): string {
  return r.mode === 'keyword' ? r.searcher : `${r.searcher} (${r.mode})`;
}

/** Rows of a per-subset table (per kind, per half): subset, queries, searcher, then the metrics. */
function subsetRows(
  report: BenchReport,
  pick: (r: SearcherResult) => Record<string, SubsetMetrics> | undefined,
): string[][] {
  const names = [...new Set(report.results.flatMap((r) => Object.keys(pick(r) ?? {})))];
  const rows: string[][] = [];
  for (const name of names) {
    for (const r of report.results) {
      const m = pick(r)?.[name];
      if (m) rows.push([name, String(m.queries), searcherLabel(r), ...METRIC_COLUMNS.map((c) => m[c.key].toFixed(3))]);
    }
  }
  return rows;
}

const SUBSET_TABLES: {
  title: (r: BenchReport) => string;
  column: string;
  pick: (r: SearcherResult) => Record<string, SubsetMetrics> | undefined;
}[] = [
  { title: (r) => `${r.dataset} per request kind`, column: 'kind', pick: (r) => r.by_kind },
  {
    title: (r) =>
      `${r.dataset} per half of the keyword config's split (dev: the half parameters are tuned on; held-out: only measured)`,
    column: 'half',
    pick: (r) => r.split,
  },
];

function alignedTable(header: string[], rows: string[][], leftColumns: Set<number>): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const lines = all.map((row) =>
    row.map((cell, i) => (leftColumns.has(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return lines;
}

function summary(report: BenchReport): string[] {
  const catalog = report.results[0]?.tokens.catalog ?? 0;
  const lines = [
    `${report.dataset}: ${report.tools} tools, ${report.queries} queries; catalog ${catalog} tokens (o200k); ` +
      `index build ${report.index.build_ms.toFixed(1)} ms; peak RSS ${report.index.peak_rss_mb} MB`,
  ];
  if (report.scale) {
    const s = report.scale;
    lines.push(
      `at scale: ${s.tools} tools, ${s.queries} queries: build ${s.build_ms.toFixed(1)} ms, ` +
        `p50 ${s.latency_ms.p50.toFixed(3)} ms, p99 ${s.latency_ms.p99.toFixed(3)} ms, peak RSS ${s.peak_rss_mb} MB`,
    );
  }
  const lens = report.results.find((r) => r.searcher === 'mcp-lens');
  if (lens?.confidence) {
    const c = lens.confidence;
    lines.push(
      `first-hit confidence (find_tools inlines the first hit's schema when confident: core/rankConfidence.ts): confident on ${(c.confident_share * 100).toFixed(1)}% of requests; ` +
        `first hit right ${c.first_right_when_confident.toFixed(3)} when confident, ${c.first_right_otherwise.toFixed(3)} otherwise`,
    );
  }
  const p = report.prediction as PredictionFigures | undefined;
  if (p && typeof p['hit@5'] === 'number') {
    const at = (f: HitRates) =>
      `@3 ${f['hit@3'].toFixed(3)}, @5 ${f['hit@5'].toFixed(3)}, @10 ${f['hit@10'].toFixed(3)}`;
    lines.push(
      `usage prediction (given a session's first tool, share of its other tools in the top K): ${at(p)}; frequency-only baseline ${at(p.baseline)}`,
    );
  }
  return lines;
}

export function formatTable(report: BenchReport): string {
  const lines = alignedTable(
    COLUMNS.map((c) => c.title),
    report.results.map((r) => COLUMNS.map((c) => c.value(r))),
    new Set([0, 1]),
  );
  const out = [...summary(report), '', ...lines];
  for (const t of SUBSET_TABLES) {
    const rows = subsetRows(report, t.pick);
    if (rows.length === 0) continue;
    out.push(
      '',
      `${t.title(report)}:`,
      ...alignedTable([t.column, 'n', 'searcher', ...METRIC_COLUMNS.map((c) => c.title)], rows, new Set([0, 2])),
    );
  }
  return out.join('\n');
}

/** `machine`: a line saying what the run shared the machine with (its load), since latencies depend on it. */
export function formatMarkdown(reports: readonly BenchReport[], command: string, machine?: string): string {
  const out = ['# MCP Lens tool-search benchmark', '', `Command: \`${command}\``, ''];
  if (machine !== undefined) out.splice(3, 0, '', machine);
  for (const report of reports) {
    out.push(`## ${report.dataset}`, '', ...summary(report).map((l) => `${l}  `), '');
    out.push(
      `| ${COLUMNS.map((c) => c.title).join(' | ')} |`,
      `|${COLUMNS.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
    );
    for (const r of report.results) out.push(`| ${COLUMNS.map((c) => c.value(r)).join(' | ')} |`);
    out.push('');
    for (const t of SUBSET_TABLES) {
      const rows = subsetRows(report, t.pick);
      if (rows.length === 0) continue;
      out.push(
        `${t.title(report)}:`,
        '',
        `| ${t.column} | n | searcher | ${METRIC_COLUMNS.map((c) => c.title).join(' | ')} |`,
        `|---|---:|---|${METRIC_COLUMNS.map(() => '---:').join('|')}|`,
      );
      for (const row of rows) out.push(`| ${row.join(' | ')} |`);
      out.push('');
    }
    for (const w of belowReference(report)) out.push(`**${w}**`, '');
  }
  out.push(
    'R@k: share of gold tools in the top k; MRR@10: 1/rank of the first gold tool; C@10: queries with every gold tool in the top 10; ' +
      "latency excludes query embedding; top5 tok: o200k tokens of the top 5 results' definitions, summed per query, averaged.",
    '',
  );
  return out.join('\n');
}
