/**
 * The replay's poisoning run (replay.ts): after the honest history (one teacher, 10% silent
 * wrong calls), another teacher — an agent told to steer search, with as many sessions as it
 * likes — teaches one tool every evaluated request's words: one find_tools → call pair per
 * request, each in a session of its own. The tool is one the honest sessions taught (so some of
 * the poisoner's words are corroborated: it is the strongest case), chosen by the seed.
 *
 * What it shows: for a request that shares no word with what honest sessions taught the tool,
 * the poisoner cannot make the tool first in a fresh session of the honest teacher ("made
 * first"), though in its own sessions it can ("first in the poisoner's sessions").
 */
import { learnedTermsOf } from '../../server/src/core/usage/learnedTerms';
import type { BenchQuery } from './dataset';
import type { ReplayLearning } from './replayHistory';
import { seededRandom } from './seededRandom';

export interface PoisoningFigures {
  /** The tool poisoned (the first seed's), and the find_tools → call pairs taught it (summed over seeds). */
  target: string;
  calls: number;
  /** Evaluated requests sharing no word with what honest sessions taught the tool, and of them where it is first… */
  unshared: number;
  /** …before the poisoning, after it in a fresh honest session, there but not before, and in the poisoner's own sessions. */
  firstBefore: number;
  firstAfter: number;
  madeFirst: number;
  firstInPoisoner: number;
  /** Requests sharing a word with it, and of them where it became first. */
  shared: number;
  sharedMadeFirst: number;
}

const CALL_GAP_MS = 2_000;

/** Runs the poisoning over `world` (history fed; `taught`: per tool, the honest sessions' terms); undefined with no history. */
export async function runPoisoning(
  world: ReplayLearning,
  evaluated: readonly BenchQuery[],
  taught: ReadonlyMap<string, ReadonlySet<string>>,
  seed: number,
): Promise<PoisoningFigures | undefined> {
  const candidates = [...taught.keys()].sort();
  if (candidates.length === 0) return undefined;
  const target = candidates[Math.floor(seededRandom(seed * 104_729)() * candidates.length)]!;
  const honest = taught.get(target)!;
  const first = async (q: BenchQuery, session: string) => (await world.rank(q.query, session))[0] === target;
  const before = new Map<BenchQuery, boolean>();
  for (const q of evaluated) before.set(q, await first(q, 'eval'));
  for (const [i, q] of evaluated.entries()) {
    const session = `poison-${i}`;
    world.learning.noteSearch(session, q.query, await world.rank(q.query, session));
    world.tick(CALL_GAP_MS);
    world.learning.noteCall({ sessionId: session, toolKey: target, outcome: 'ok', fromAgent: true });
  }
  const figures: PoisoningFigures = {
    target,
    calls: evaluated.length,
    unshared: 0,
    firstBefore: 0,
    firstAfter: 0,
    madeFirst: 0,
    firstInPoisoner: 0,
    shared: 0,
    sharedMadeFirst: 0,
  };
  for (const q of evaluated) {
    const after = await first(q, 'eval');
    const wasFirst = before.get(q)!;
    if (learnedTermsOf(q.query).some((t) => honest.has(t))) {
      figures.shared++;
      if (after && !wasFirst) figures.sharedMadeFirst++;
      continue;
    }
    figures.unshared++;
    if (wasFirst) figures.firstBefore++;
    if (after) figures.firstAfter++;
    if (after && !wasFirst) figures.madeFirst++;
    if (await first(q, 'poison-x')) figures.firstInPoisoner++;
  }
  return figures;
}

/** Figures of several seeds, summed (the first seed's tool named). */
export function sumPoisoning(all: readonly PoisoningFigures[]): PoisoningFigures {
  const sum = { ...all[0]! };
  for (const f of all.slice(1))
    for (const k of Object.keys(sum) as (keyof PoisoningFigures)[]) if (k !== 'target') sum[k] += f[k];
  return sum;
}
