/** Rendering bench reports: an aligned table for people, Markdown for bench-results.md. */
import type { BenchReport, SearcherResult } from './runBench';

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
  const p = report.prediction as PredictionFigures | undefined;
  if (p && typeof p['hit@5'] === 'number') {
    const at = (f: HitRates) => `@3 ${f['hit@3'].toFixed(3)}, @5 ${f['hit@5'].toFixed(3)}, @10 ${f['hit@10'].toFixed(3)}`;
    lines.push(`usage prediction (given a session's first tool, share of its other tools in the top K): ${at(p)}; frequency-only baseline ${at(p.baseline)}`);
  }
  return lines;
}

export function formatTable(report: BenchReport): string {
  const rows = [COLUMNS.map((c) => c.title), ...report.results.map((r) => COLUMNS.map((c) => c.value(r)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return [...summary(report), '', ...lines].join('\n');
}

export function formatMarkdown(reports: readonly BenchReport[], command: string): string {
  const out = ['# MCP Lens tool-search benchmark', '', `Command: \`${command}\``, ''];
  for (const report of reports) {
    out.push(`## ${report.dataset}`, '', ...summary(report).map((l) => `${l}  `), '');
    out.push(`| ${COLUMNS.map((c) => c.title).join(' | ')} |`, `|${COLUMNS.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`);
    for (const r of report.results) out.push(`| ${COLUMNS.map((c) => c.value(r)).join(' | ')} |`);
    out.push('');
  }
  out.push(
    'R@k: share of gold tools in the top k; MRR@10: 1/rank of the first gold tool; C@10: queries with every gold tool in the top 10; ' +
      'latency excludes query embedding; top5 tok: o200k tokens of the top 5 results\' definitions, summed per query, averaged.',
    '',
  );
  return out.join('\n');
}
