/**
 * Live retrieval quality, measured on the workspace's own work (pure). Every call an agent
 * makes through the gateway is judged against its session's most recent find_tools answer:
 * - the first call after an answer records where its tool stood there: a 1-based rank, or
 *   `missed` when the answer did not hold it (an empty answer included);
 * - a call before any find_tools in its session is `unsearched`;
 * - later calls that reuse an answer already judged are `followUp`: no search chose them,
 *   so they say nothing about the ranking (and a tool called 20 times counts once).
 * Only the rank is kept, never the query or the arguments.
 */
import type { RetrievalStats, RetrievalTrend, RetrievalWindow } from '../../../../protocol/model';
import type { SearchRank, UsageEvent } from './types';

/** What a session remembers of its most recent find_tools answer. */
export interface AnswerMemory {
  /** Catalog keys in the order the answer listed them. */
  keys: readonly string[];
  /** Whether a call was already judged against it. */
  judged: boolean;
}

/** Where a call stands against the session's last answer (undefined: no find_tools yet). Marks the answer judged. */
export function judgeCall(answer: AnswerMemory | undefined, toolKey: string): SearchRank {
  if (!answer) return 'unsearched';
  if (answer.judged) return 'followUp';
  answer.judged = true;
  const i = answer.keys.indexOf(toolKey);
  return i < 0 ? 'missed' : i + 1;
}

/** Sessions in each window: the most recent ones, compared with as many before them. */
export const SESSIONS_PER_WINDOW = 10;
/** A trend needs at least this many picks on both sides; fewer is noise. */
export const MIN_TREND_PICKS = 10;
/** A change in hit rate smaller than this (in share points) is "steady". */
export const TREND_THRESHOLD = 0.1;

function emptyWindow(): RetrievalWindow {
  return { sessions: 0, calls: 0, picks: 0, top1: 0, top5: 0, missed: 0, unsearched: 0 };
}

function add(w: RetrievalWindow, rank: SearchRank, at: number): void {
  w.calls++;
  w.firstAt = Math.min(w.firstAt ?? at, at);
  w.lastAt = Math.max(w.lastAt ?? at, at);
  if (rank === 'unsearched') w.unsearched++;
  else if (rank === 'missed') {
    w.picks++;
    w.missed++;
  } else if (typeof rank === 'number') {
    w.picks++;
    if (rank === 1) w.top1++;
    if (rank <= 5) w.top5++;
  }
}

/**
 * The figures of the `perWindow` most recent sessions with agent calls (sessions ordered by
 * their last call) and of the `perWindow` before them. Calls without a judgement (dashboard and
 * palette calls, records older than this measure) are not agent calls here.
 */
export function retrievalStats(
  events: readonly UsageEvent[],
  perWindow = SESSIONS_PER_WINDOW,
): RetrievalStats | undefined {
  const windowOf = new Map<string, RetrievalWindow | null>();
  const recent = emptyWindow();
  const earlier = emptyWindow();
  let sessions = 0;
  // Newest first: a session's place is decided by its last call.
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.searchRank === undefined) continue;
    let w = windowOf.get(e.sessionId);
    if (w === undefined) {
      w = sessions < perWindow ? recent : sessions < 2 * perWindow ? earlier : null;
      windowOf.set(e.sessionId, w);
      sessions++;
      if (w) w.sessions++;
    }
    if (w) add(w, e.searchRank, e.at);
  }
  if (recent.calls === 0) return undefined;
  const stats: RetrievalStats = { recent };
  if (earlier.calls > 0) stats.earlier = earlier;
  const trend = retrievalTrend(recent, earlier);
  if (trend) stats.trend = trend;
  return stats;
}

/**
 * Whether the hit rates went down or up between the earlier and the recent sessions: by at
 * least TREND_THRESHOLD at rank 1 or within the top 5, with MIN_TREND_PICKS picks on each side.
 * A fall in either counts as falling.
 */
export function retrievalTrend(recent: RetrievalWindow, earlier: RetrievalWindow): RetrievalTrend | undefined {
  if (recent.picks < MIN_TREND_PICKS || earlier.picks < MIN_TREND_PICKS) return undefined;
  // The epsilon keeps 0.6 − 0.7 (−0.0999…) from missing the threshold by a rounding error.
  const limit = TREND_THRESHOLD - 1e-9;
  const d1 = recent.top1 / recent.picks - earlier.top1 / earlier.picks;
  const d5 = recent.top5 / recent.picks - earlier.top5 / earlier.picks;
  if (d1 <= -limit || d5 <= -limit) return 'falling';
  if (d1 >= limit || d5 >= limit) return 'rising';
  return 'steady';
}
