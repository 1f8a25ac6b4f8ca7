/**
 * The dashboard's usage figures, kept incrementally as calls arrive (pure): recomputing them
 * from a long history after every call would cost more than the call.
 */
import type { UsageStats } from '../../../../protocol/model';
import type { UsageEvent } from './types';

const TOP = 10;
/** A session with more distinct tools than this adds no further pairs (quadratic, and says little). */
const MAX_PAIR_TOOLS = 50;
/** Tool ids stay below this (2M distinct tools), so a pair of ids fits one safe integer. */
const PAIR_BASE = 2 ** 21;

/** The tool's original name: its key minus the `server/` prefix the key was built from. */
function originalNameOf(e: Pick<UsageEvent, 'toolKey' | 'server'>): string {
  return e.toolKey.startsWith(`${e.server}/`) ? e.toolKey.slice(e.server.length + 1) : e.toolKey;
}

export class UsageAggregate {
  private calls = 0;
  /** Calls agents made through the gateway: the ones judged against a find_tools answer (searchRank). */
  private agentCalls = 0;
  private readonly tools = new Map<string, { id: number; server: string; name: string; calls: number }>();
  private readonly keyOfId: string[] = [];
  /** Distinct tool ids per session. */
  private readonly sessionTools = new Map<string, Set<number>>();
  /** Sessions per pair of tool ids, keyed `low * 2^21 + high` (numbers hash far faster than strings). */
  private readonly pairs = new Map<number, number>();
  private predictedKnown = 0;
  private predictedHits = 0;

  add(e: UsageEvent): void {
    this.calls++;
    if (e.searchRank !== undefined) this.agentCalls++;
    let t = this.tools.get(e.toolKey);
    if (t) t.calls++;
    else {
      this.tools.set(e.toolKey, (t = { id: this.keyOfId.length, server: e.server, name: originalNameOf(e), calls: 1 }));
      this.keyOfId.push(e.toolKey);
    }
    this.addToSession(e.sessionId, t.id);
    if (e.predicted !== undefined) {
      this.predictedKnown++;
      if (e.predicted) this.predictedHits++;
    }
  }

  stats(resolveName?: (key: string) => string): UsageStats {
    const name = (key: string) => resolveName?.(key) ?? this.tools.get(key)?.name ?? key;
    const topTools = [...this.tools]
      .sort((x, y) => y[1].calls - x[1].calls || (x[0] < y[0] ? -1 : 1))
      .slice(0, TOP)
      .map(([key, t]) => ({ name: name(key), server: t.server, calls: t.calls }));
    const pairs = [...this.pairs]
      .filter(([, count]) => count > 1)
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, TOP)
      .map(([id, count]) => ({
        a: name(this.keyOfId[Math.floor(id / PAIR_BASE)]!),
        b: name(this.keyOfId[id % PAIR_BASE]!),
        count,
      }));
    const stats: UsageStats = {
      enabled: true,
      callsRecorded: this.calls,
      agentCalls: this.agentCalls,
      topTools,
      pairs,
    };
    if (this.predictedKnown > 0) stats.predictedHitRate = this.predictedHits / this.predictedKnown;
    return stats;
  }

  private addToSession(sessionId: string, tool: number): void {
    let set = this.sessionTools.get(sessionId);
    if (!set) this.sessionTools.set(sessionId, (set = new Set()));
    if (set.has(tool) || set.size >= MAX_PAIR_TOOLS) return;
    for (const other of set) {
      const id = Math.min(other, tool) * PAIR_BASE + Math.max(other, tool);
      this.pairs.set(id, (this.pairs.get(id) ?? 0) + 1);
    }
    set.add(tool);
  }
}
