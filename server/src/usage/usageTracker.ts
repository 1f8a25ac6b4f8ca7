/**
 * The usage tracker the app and the gateway use: records every call through the gateway in
 * the workspace's usage store, learns from it (core/usage predictors) and predicts the tools
 * a session needs next. Recording never blocks and never throws; with tracking off nothing
 * is kept, not even a folder.
 */
import { plural } from '../../../protocol/figureText';
import type { UsageStats } from '../../../protocol/model';
import type { Logger } from '../core/logger';
import type { RankedTool } from '../core/search/types';
import type { UsageSignal } from '../core/search/types';
import { ChangeEmitter } from '../core/changeEmitter';
import { DEFAULT_BOOST, usageBoost } from '../core/usage/boost';
import { defaultPredictor, type CombinedPredictor } from '../core/usage/combined';
import { BoundedMap } from '../core/usage/ranking';
import { judgeCall, retrievalStats, type AnswerMemory } from '../core/usage/retrieval';
import { UsageAggregate } from '../core/usage/stats';
import type { CallOutcome, Prediction, UsageEvent } from '../core/usage/types';
import { UsageStore } from '../adapters/usage/usageStore';

const DAY_MS = 24 * 3600 * 1000;
/** How many sessions' call lists stay in memory for prediction. */
const LIVE_SESSIONS = 2000;
/** How deep the prediction behind a search boost goes. */
const BOOST_DEPTH = 50;

export interface UsageTrackerOptions {
  /** The store folder (per workspace). */
  dir: string;
  enabled: boolean;
  retentionDays: number;
  log: Logger;
  now?: () => number;
  /** K of "predicted" in predictedHitRate: the exposure's `predict.maxTools` (default 10). */
  predictK?: number;
}

export interface CallRecord {
  sessionId: string;
  toolKey: string;
  server: string;
  startedAt: number;
  durationMs: number;
  outcome: CallOutcome;
  /** Only hashed (salted HMAC), never stored or logged. */
  args?: unknown;
  /**
   * An agent's call through the gateway (call_tool, or a tool listed directly). Only these are
   * judged against the session's find_tools answers; dashboard and palette calls are not.
   */
  fromAgent?: boolean;
}

interface SessionState {
  seq: number;
  /**
   * The session's calls as the predictors read them (their distinct tools and the last call),
   * kept compact: its distinct tools in the order first called. A session of 300 calls to a few
   * tools stays a few entries, so recording and predicting cost the same at its end as at its start.
   */
  distinct: string[];
  seen: Set<string>;
  last?: string;
  /** The session's most recent find_tools answer (keys in answer order). */
  answer?: AnswerMemory;
}

export class UsageTracker {
  private store: UsageStore | undefined;
  private events: UsageEvent[] = [];
  private aggregate = new UsageAggregate();
  private readonly predictor: CombinedPredictor = defaultPredictor();
  private readonly sessions = new BoundedMap<string, SessionState>(LIVE_SESSIONS);
  private readonly changes: ChangeEmitter<void>;
  private readonly now: () => number;
  private pruneTimer?: NodeJS.Timeout | undefined;
  private statsCache?: UsageStats | undefined;
  private retrievalCache?: { stats: UsageStats['retrieval'] } | undefined;
  private changeQueued = false;
  /** Calls recorded but not yet learned from: see `record`. */
  private pending: CallRecord[] = [];
  private drainQueued = false;

  private readonly opts: UsageTrackerOptions;

  private constructor(opts: UsageTrackerOptions) {
    this.opts = { ...opts };
    this.now = opts.now ?? Date.now;
    this.changes = new ChangeEmitter((err) => opts.log.warn(`usage: a change listener failed: ${String(err)}`));
  }

  /** Opens (or, when disabled, does not touch) the store in `opts.dir`. Never throws on I/O trouble. */
  static async open(opts: UsageTrackerOptions): Promise<UsageTracker> {
    const tracker = new UsageTracker(opts);
    if (opts.enabled) await tracker.activate();
    return tracker;
  }

  /**
   * Records one call. Non-blocking: the call is learned from (prediction, argument hash,
   * aggregates) once the reply is on its way, in order, and before anything
   * reads what was learned (every reader drains first); the disk write is batched.
   */
  record(call: CallRecord): void {
    if (!this.opts.enabled) return;
    this.pending.push(call);
    if (this.drainQueued) return;
    this.drainQueued = true;
    setImmediate(() => this.drain());
  }

  /** Learns from the calls recorded so far. */
  private drain(): void {
    this.drainQueued = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    for (const call of batch) this.learn(call);
  }

  private learn(call: CallRecord): void {
    if (!this.opts.enabled) return;
    const session = this.session(call.sessionId);
    const before = this.predictor.predict(
      { sessionTools: sessionTools(session), now: call.startedAt },
      this.opts.predictK ?? 10,
    );
    const event: UsageEvent = {
      sessionId: call.sessionId,
      seq: ++session.seq,
      toolKey: call.toolKey,
      server: call.server,
      at: call.startedAt,
      durationMs: Math.max(0, Math.round(call.durationMs)),
      outcome: call.outcome,
      predicted: before.some((p) => p.key === call.toolKey),
    };
    if (call.fromAgent) event.searchRank = judgeCall(session.answer, call.toolKey);
    if (call.args !== undefined && this.store) {
      try {
        event.argsHash = this.store.hashArgs(call.args);
      } catch {
        // Unserializable arguments (cycles, BigInt): recorded without a hash.
      }
    }
    noteCall(session, call.toolKey);
    this.events.push(event);
    this.aggregate.add(event);
    this.predictor.observe([
      { sessionId: event.sessionId, toolKey: event.toolKey, at: event.at, server: event.server },
    ]);
    this.store?.append(event);
    this.changed();
  }

  /**
   * Notes a find_tools answer (its tools' keys, in the order the agent saw them) so the
   * session's next call can be judged against it. An empty answer counts: the next call then
   * missed. The query is not passed here at all: it may hold secrets and only ranks matter.
   */
  noteAnswer(sessionId: string, answerKeys: readonly string[]): void {
    if (!this.opts.enabled) return;
    this.drain();
    this.session(sessionId).answer = { keys: [...answerKeys], judged: false };
  }

  /** The k tools this session most likely calls next, best first (frequency alone for a new session). */
  predict(sessionId: string, k: number): Prediction[] {
    if (!this.opts.enabled) return [];
    this.drain();
    const session = this.sessions.get(sessionId);
    return this.predictor.predict({ sessionTools: session ? sessionTools(session) : [], now: this.now() }, k);
  }

  /** The session boost as a usage signal: the last stage of the ranking pipeline (core/search/usageSignal.ts). */
  readonly searchSignal: UsageSignal = {
    rerank: (hits, request) => (request.sessionId === undefined ? [...hits] : this.boost(request.sessionId, [...hits])),
  };

  /** Re-ranks a search's candidates with the session's prediction; unchanged for a session without calls. */
  boost(sessionId: string, candidates: RankedTool[]): RankedTool[] {
    this.drain();
    if (!this.opts.enabled || this.sessions.get(sessionId)?.last === undefined) return candidates;
    return usageBoost(candidates, this.predict(sessionId, BOOST_DEPTH), DEFAULT_BOOST);
  }

  stats(resolveName?: (key: string) => string): UsageStats {
    if (!this.opts.enabled) return { enabled: false, callsRecorded: 0, topTools: [], pairs: [] };
    this.drain();
    const stats = resolveName ? this.aggregate.stats(resolveName) : (this.statsCache ??= this.aggregate.stats());
    // Computed from the call list (newest sessions first), once per change.
    const retrieval = (this.retrievalCache ??= { stats: retrievalStats(this.events) }).stats;
    return retrieval ? { ...stats, retrieval } : stats;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    if (enabled === this.opts.enabled) return;
    this.drain();
    this.opts.enabled = enabled;
    if (enabled) await this.activate();
    else await this.deactivate();
    this.changed();
  }

  /** Deletes every recorded call, on disk and in memory. */
  async clear(): Promise<void> {
    this.pending = [];
    this.forget();
    await this.store
      ?.clear()
      .catch((err: unknown) => this.opts.log.warn(`usage: clearing ${this.opts.dir} failed: ${String(err)}`));
    this.changed();
  }

  /** Writes and fsyncs what is queued. */
  async flush(): Promise<void> {
    this.drain();
    await this.store?.flush();
  }

  async close(): Promise<void> {
    this.drain();
    await this.deactivate();
    this.changes.clear();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  private async activate(): Promise<void> {
    try {
      const { store, events } = await UsageStore.open(this.opts.dir, this.opts.log);
      this.store = store;
      this.load(events);
      await this.prune();
    } catch (err) {
      this.opts.log.warn(`usage: cannot open the store in ${this.opts.dir} (${String(err)}); recording in memory only`);
    }
    this.pruneTimer = setInterval(() => void this.prune(), DAY_MS);
    this.pruneTimer.unref();
  }

  private async deactivate(): Promise<void> {
    clearInterval(this.pruneTimer);
    this.pruneTimer = undefined;
    const store = this.store;
    this.store = undefined;
    this.forget();
    await store
      ?.close()
      .catch((err: unknown) => this.opts.log.warn(`usage: closing ${this.opts.dir} failed: ${String(err)}`));
  }

  /** Drops calls older than the retention and compacts the log when any went. */
  private async prune(): Promise<void> {
    this.drain();
    const cutoff = this.now() - this.opts.retentionDays * DAY_MS;
    const kept = this.events.filter((e) => e.at >= cutoff);
    if (kept.length === this.events.length) return;
    this.opts.log.info(
      `usage: pruned ${plural(this.events.length - kept.length, 'call')} older than ${plural(this.opts.retentionDays, 'day')}`,
    );
    this.forget();
    this.load(kept);
    await this.store?.compact(kept);
    this.changed();
  }

  private load(events: UsageEvent[]): void {
    this.events = events;
    for (const e of events) {
      this.aggregate.add(e);
      const s = this.session(e.sessionId);
      s.seq = Math.max(s.seq, e.seq);
      noteCall(s, e.toolKey);
    }
    this.predictor.observe(
      events.map((e) => ({ sessionId: e.sessionId, toolKey: e.toolKey, at: e.at, server: e.server })),
    );
  }

  private forget(): void {
    this.events = [];
    this.aggregate = new UsageAggregate();
    this.sessions.clear();
    this.predictor.reset();
    this.statsCache = undefined;
    this.retrievalCache = undefined;
  }

  private session(id: string): SessionState {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = { seq: 0, distinct: [], seen: new Set() }));
    return s;
  }

  /** Coalesces change notifications of one tick (a burst of calls) into one. */
  private changed(): void {
    this.statsCache = undefined;
    this.retrievalCache = undefined;
    if (this.changeQueued) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      this.changes.fire();
    });
  }
}

function noteCall(s: SessionState, toolKey: string): void {
  if (!s.seen.has(toolKey)) (s.seen.add(toolKey), s.distinct.push(toolKey));
  s.last = toolKey;
}

/**
 * What the predictors get as the session's calls: the same distinct tools in the same order,
 * and the same last call, as the whole list would give them.
 */
function sessionTools(s: SessionState): readonly string[] {
  return s.last === undefined || s.distinct[s.distinct.length - 1] === s.last ? s.distinct : [...s.distinct, s.last];
}
