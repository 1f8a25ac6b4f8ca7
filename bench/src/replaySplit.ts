/**
 * The replay's split of a retrieval set (bench/src/replay.ts): requests grouped by the tool they
 * are for (their first gold tool); in every group of two or more, a seeded `share` of them
 * (at least one, never all) is history — fed to search learning as find_tools → call pairs —
 * and the rest is evaluated. A request whose tool has no other request is in neither: nothing
 * could be learned for it. History is fed in a seeded order across all tools, as a workspace's
 * requests come, never one tool's all at once.
 */
import type { BenchQuery } from './dataset';
import { seededRandom, shuffled } from './seededRandom';

export interface ReplaySplit {
  /** In the order they are fed. */
  history: BenchQuery[];
  /** In the set's order. */
  evaluated: BenchQuery[];
}

export function replaySplit(queries: readonly BenchQuery[], share: number, seed: number): ReplaySplit {
  const random = seededRandom(seed);
  const groups = new Map<string, BenchQuery[]>();
  for (const q of queries) {
    const tool = q.gold[0];
    if (tool === undefined) continue;
    let g = groups.get(tool);
    if (!g) groups.set(tool, (g = []));
    g.push(q);
  }
  const history: BenchQuery[] = [];
  const evaluated = new Set<BenchQuery>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const order = shuffled(group, random);
    const n = share <= 0 ? 0 : Math.min(group.length - 1, Math.max(1, Math.round(group.length * share)));
    history.push(...order.slice(0, n));
    for (const q of order.slice(n)) evaluated.add(q);
  }
  return { history: shuffled(history, random), evaluated: queries.filter((q) => evaluated.has(q)) };
}
