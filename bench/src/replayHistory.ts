/**
 * Feeding a replay's history to search learning (replay.ts): each history request one gateway
 * session — find_tools with the request, ranked with what was learned so far as the gateway
 * ranks it, then the call of its gold tools in order, or of a wrong tool for a share `wrong` of
 * them (silent, or noticed: it fails, or the same search follows at once; either way the right
 * tools are then called). Sessions are a minute apart.
 */
import type { CatalogTool } from '../../server/src/core/catalog';
import { learnedTermsOf } from '../../server/src/core/usage/learnedTerms';
import type { SearchLearning } from '../../server/src/usage/searchLearning';
import type { BenchQuery } from './dataset';
import type { ReplayRun } from './replay';
import { seededRandom } from './seededRandom';

const SESSION_GAP_MS = 60_000;
const CALL_GAP_MS = 2_000;

/** Search learning with its clock, and the ranking as a session of it sees it. */
export interface ReplayLearning {
  learning: SearchLearning;
  tick(ms: number): void;
  rank(query: string, sessionId: string): Promise<string[]>;
}

/** Every session of the replay is one teacher (the user); a poisoner's sessions another. */
export const WORKSPACE_SESSIONS = (sessionId: string): string =>
  sessionId.startsWith('poison') ? 'poisoner' : 'workspace';
/** Every session its own teacher: what the gateway does (usage/learnedProvenance.ts). */
export const OWN_SESSIONS = (sessionId: string): string => sessionId;

/**
 * Feeds `history` as one run of wrong calls. Returns, per tool, the terms of every session that
 * called it (whether or not the call taught: a superset of what the history taught each tool).
 */
export async function feedHistory(
  world: ReplayLearning,
  history: readonly BenchQuery[],
  tools: readonly CatalogTool[],
  { wrong, noticed }: ReplayRun,
  seed: number,
): Promise<Map<string, Set<string>>> {
  const { learning } = world;
  const taught = new Map<string, Set<string>>();
  const random = seededRandom(seed * 7919 + Math.round(wrong * 1000) + Math.round(noticed * 100_000));
  for (const [i, q] of history.entries()) {
    world.tick(SESSION_GAP_MS);
    const session = `replay-${i}`;
    const answer = await world.rank(q.query, session);
    learning.noteSearch(session, q.query, answer);
    const call = (key: string, ok = true) => {
      world.tick(CALL_GAP_MS);
      learning.noteCall({ sessionId: session, toolKey: key, outcome: ok ? 'ok' : 'error', fromAgent: true });
      let terms = taught.get(key);
      if (!terms) taught.set(key, (terms = new Set()));
      for (const t of learnedTermsOf(q.query)) terms.add(t);
    };
    if (random() >= wrong) {
      for (const g of q.gold) call(g);
      continue;
    }
    const bad = wrongTool(q, answer, tools, random);
    if (random() >= noticed) {
      call(bad);
      continue;
    }
    if (random() < 0.5) call(bad, false);
    else {
      call(bad);
      world.tick(CALL_GAP_MS);
      learning.noteSearch(session, q.query, await world.rank(q.query, session));
    }
    for (const g of q.gold) call(g);
  }
  return taught;
}

/** A tool that is not the request's: the first hit when it is wrong, else another of the answer, else any. */
function wrongTool(
  q: BenchQuery,
  answer: readonly string[],
  tools: readonly CatalogTool[],
  random: () => number,
): string {
  const right = new Set(q.gold.flatMap((g) => [g, ...(q.goldAlternatives?.[g] ?? [])]));
  const first = answer[0];
  if (first !== undefined && !right.has(first)) return first;
  const others = answer.filter((k) => !right.has(k));
  if (others.length > 0) return others[Math.floor(random() * others.length)]!;
  for (;;) {
    const k = tools[Math.floor(random() * tools.length)]!.key;
    if (!right.has(k)) return k;
  }
}
