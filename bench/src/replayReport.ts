/** Rendering the search-learning replay (replay.ts): an aligned table for people, Markdown for bench-results.md. */
import type { ReplayFigures, ReplayReport } from './replay';

type Part = 'all' | 'held-out';
const PARTS: readonly Part[] = ['all', 'held-out'];
const METRICS = ['recall@1', 'recall@5', 'mrr@10'] as const;
const HEADER = [
  'ranking',
  'wrong calls',
  'kept',
  ...PARTS.flatMap((p) => METRICS.map((m) => `${p === 'all' ? '' : 'held-out '}${title(m)}`)),
];

function title(m: (typeof METRICS)[number]): string {
  return m === 'mrr@10' ? 'MRR@10' : m === 'recall@1' ? 'R@1' : 'R@5';
}

function cells(parts: Record<Part, ReplayFigures>): string[] {
  return PARTS.flatMap((p) => METRICS.map((m) => parts[p][m].toFixed(3)));
}

function wrongText(wrong: number, noticed: number): string {
  const pct = `${Math.round(wrong * 100)}%`;
  if (wrong === 0) return '0%';
  return noticed > 0 ? `${pct}, ${Math.round(noticed * 100)}% of them noticed` : `${pct}, silent`;
}

function rows(r: ReplayReport): string[][] {
  return [
    ['without learning', '–', '–', ...cells(r.without)],
    ...r.with.map((w) => [
      'with learning',
      wrongText(w.wrong, w.noticed),
      String(Math.round(w.learned)),
      ...cells(w.figures),
    ]),
    ...(r.ownSessions
      ? [['each session its own teacher (the gateway)', wrongText(0.1, 0), '–', ...cells(r.ownSessions)]]
      : []),
  ];
}

/** The poisoning run's line (replayPoisoning.ts), or nothing. */
function poisoningText(r: ReplayReport): string[] {
  const p = r.poisoning;
  if (!p) return [];
  return [
    `poisoning: another teacher taught ${p.target} ${p.calls} find_tools → call pairs, one per evaluated request; ` +
      `of the ${p.unshared} requests sharing no word with what honest sessions taught it, it became first for ${p.madeFirst} ` +
      `in a fresh honest session (first before: ${p.firstBefore}, after: ${p.firstAfter}), and for ${p.firstInPoisoner} in the poisoner's own sessions; ` +
      `of the ${p.shared} sharing a word, it became first for ${p.sharedMadeFirst}`,
  ];
}

function seedsText(seeds: readonly number[]): string {
  return seeds.length === 1 ? `seed ${seeds[0]}` : `mean of seeds ${seeds[0]}–${seeds[seeds.length - 1]}`;
}

function heading(r: ReplayReport): string {
  return (
    `${r.dataset}: ${Math.round(r.history * 100)}% of each tool's requests fed as history (${r.fed} requests), ` +
    `${r.evaluated} evaluated (${r.without['held-out'].queries} held out; R@1 at most ${r.without.all['recall@1 max'].toFixed(3)}, ` +
    `held out ${r.without['held-out']['recall@1 max'].toFixed(3)}: a request for n tools has one of them first); ${seedsText(r.seeds)}`
  );
}

export function formatReplayTable(r: ReplayReport): string {
  const all = [HEADER, ...rows(r)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const lines = all.map((row) => row.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return [heading(r), ...lines, ...poisoningText(r)].join('\n');
}

export function formatReplayMarkdown(reports: readonly ReplayReport[], command: string): string {
  const out = [
    '# Search learning (replay)',
    '',
    `Command: \`${command}\``,
    '',
    "Each set's requests are grouped by the tool they are for; in every group of two or more, a seeded share is fed as history to the " +
      'very class the gateway uses (server/src/usage/searchLearning.ts) as find_tools → call sessions, and the rest is ranked with and without ' +
      'what was learned. A wrong call calls the first hit when it is wrong, else another tool of the answer; a silent one succeeds and nothing ' +
      'follows it, a noticed one fails or is followed at once by the same search and the right tool. "kept": past requests in the store at the ' +
      'end (at most 4,000). Held out: the half of the requests (benchSplit.ts) the knobs were not chosen on. Cold-start figures (no history) are ' +
      "the search section above: learning with nothing learned leaves every ranking as it is. The history's sessions count as one " +
      'teacher (the user) and the evaluated requests are ranked in a fresh session of it; "each session its own teacher" ranks ' +
      'as the gateway does (a session reads what it taught and what two sessions or the user agree on). ' +
      'Poisoning: bench/src/replayPoisoning.ts.',
    '',
  ];
  for (const r of reports) {
    out.push(`## ${r.dataset}`, '', `${heading(r)}`, '');
    out.push(
      `| ${HEADER.join(' | ')} |`,
      `|---|---|${HEADER.slice(2)
        .map(() => '---:')
        .join('|')}|`,
    );
    for (const row of rows(r)) out.push(`| ${row.join(' | ')} |`);
    out.push('', ...poisoningText(r).flatMap((line) => [line, '']));
  }
  return out.join('\n');
}
