/**
 * Which requests hybrid mode answers with another first hit than keyword mode
 * (`mcp-lens bench --show-changes`), from the per-query rows of one run: each change is
 * `fixed` (keyword's first was wrong, hybrid's is right), `broken` (the reverse) or `other`
 * (both wrong, or both right: a gold alternative). With the fusion's yield off, hybrid keeps
 * keyword's first hit, so this lists only requests keyword search found nothing for; with it
 * on, it shows exactly what the yield changes.
 */
import type { PerQueryRow } from './runBench';

export type ChangeVerdict = 'fixed' | 'broken' | 'other';

export interface Top1Change {
  id: string;
  query: string;
  /** The first hits compared; null when that searcher returned nothing. */
  from: string | null;
  to: string | null;
  verdict: ChangeVerdict;
}

export interface Top1Changes {
  /** The per-query keys compared (`mcp-lens`, `mcp-lens/hybrid`). */
  from: string;
  to: string;
  fixed: number;
  broken: number;
  other: number;
  changes: Top1Change[];
}

/** The first-hit changes between two searchers of the same rows. */
export function top1Changes(rows: readonly PerQueryRow[], from: string, to: string): Top1Changes {
  const out: Top1Changes = { from, to, fixed: 0, broken: 0, other: 0, changes: [] };
  for (const row of rows) {
    const a = row.top10[from]?.[0] ?? null;
    const b = row.top10[to]?.[0] ?? null;
    if (a === b) continue;
    const right = (key: string | null) =>
      key !== null && (row.gold.includes(key) || row.gold.some((g) => row.gold_alternatives?.[g]?.includes(key)));
    const verdict: ChangeVerdict = !right(a) && right(b) ? 'fixed' : right(a) && !right(b) ? 'broken' : 'other';
    out[verdict]++;
    out.changes.push({ id: row.id, query: row.query, from: a, to: b, verdict });
  }
  return out;
}

/** The listing for people: a summary line, then one line per change (the request cut to 80 characters). */
export function formatChanges(c: Top1Changes): string {
  const lines = [
    `first hit, ${c.from} → ${c.to}: ${c.changes.length} requests change (${c.fixed} fixed, ${c.broken} broken, ${c.other} other)`,
  ];
  for (const ch of c.changes) {
    const query = ch.query.length > 80 ? `${ch.query.slice(0, 79)}…` : ch.query;
    lines.push(
      `  ${ch.verdict.padEnd(6)}  ${ch.id}  ${JSON.stringify(query)}  ${ch.from ?? '(none)'} → ${ch.to ?? '(none)'}`,
    );
  }
  return lines.join('\n');
}
