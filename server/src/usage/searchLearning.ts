/**
 * Search that learns from the workspace (mcpLens.search.learnFromUsage, on by default): every
 * find_tools → call pair of a gateway session is a labelled example of this user's words for
 * this catalog's tools. The rules of what teaches what are core/usage/searchSteps.ts; what is
 * kept, bounded, is core/usage/learnedExamples.ts; who may read what (a session's lessons count
 * for it alone until another session or the user corroborates them) is
 * core/usage/learnedDocuments.ts; how it ranks (each tool's learned words against the request, in
 * the pipeline's last stage, within the bounds of core/usage/learnedLimits.ts) is
 * core/usage/learnedRanking.ts. This class holds them per workspace: a SessionSteps per live
 * session, the examples, the catalog's tool fingerprints (a changed or removed tool forgets what
 * was learned for it), and the file they are kept in (learnedFileStore.ts: the user's state
 * folder, 0600, read off the gateway's thread, never sent anywhere).
 *
 * The bench's replay (bench/src/replay.ts) drives this same class, in memory, with its own clock.
 */
import type { LearnedSearchView } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { ChangeEmitter } from '../core/changeEmitter';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import type { RankedTool, UsageRequest, UsageSignal } from '../core/search/types';
import { isDestructiveTool } from '../core/toolAnnotations';
import {
  LEARNED_BOUNDS,
  LearnedExamples,
  type LearnedBounds,
  type LearnedExample,
  type Lesson,
} from '../core/usage/learnedExamples';
import { learnedSummary } from '../core/usage/learnedSummary';
import { learnedTermsOf, learnedWordsOf, type LearnedWord } from '../core/usage/learnedTerms';
import { LEARNED_RANKING_KNOBS, rerankByLearning, type LearnedRankingKnobs } from '../core/usage/learnedRanking';
import { CatalogFingerprints } from '../core/usage/catalogFingerprints';
import { BoundedMap } from '../core/usage/ranking';
import { SessionSteps, STEP_RULES, type StepRules } from '../core/usage/searchSteps';
import type { CallOutcome } from '../core/usage/types';
import type { OthersTaught, SharedLessons } from '../adapters/state/pgLessons';
import type { LearnedRead } from '../adapters/usage/learnedFile';
import { LearnedFileStore } from './learnedFileStore';
import { teacherId } from './learnedProvenance';

/** Live sessions whose current step is remembered. */
const LIVE_SESSIONS = 2000;

export interface SearchLearningOptions {
  /** The learned file (learnedFilePath); absent: in memory only (the bench, one-shot commands). */
  file?: string;
  /**
   * Lessons shared with other replicas (`serve --http --state`, adapters/state/pgLessons.ts):
   * replayed at start, each lesson taught here appended, the others' applied as they come. The
   * file is then not used.
   */
  shared?: SharedLessons;
  enabled: boolean;
  log: Logger;
  now?: () => number;
  knobs?: LearnedRankingKnobs;
  rules?: StepRules;
  bounds?: LearnedBounds;
  /**
   * Whom a session's lessons count for (learnedProvenance.ts): the id of whoever it acts for.
   * Default: the session itself.
   */
  provenance?: (sessionId: string) => string;
  /** How the file is read (default: on a worker thread). */
  readFile?: (file: string) => Promise<LearnedRead>;
}

/** One search as search learning takes part in it (SearchLearning.forRequest). */
export interface SearchLesson {
  /** Ranks this search by what was learned (its last stage). */
  signal: UsageSignal;
  /** The session's find_tools answered `answer` (keys, in order): what its next call teaches is judged against it. */
  noteAnswer(sessionId: string, answer: readonly string[]): void;
}

/** A finished call as search learning sees it (UsageTracker's CallRecord has these fields). */
export interface LearnedCall {
  sessionId: string;
  toolKey: string;
  outcome: CallOutcome;
  fromAgent?: boolean;
}

export class SearchLearning {
  private readonly examples: LearnedExamples;
  private readonly sessions = new BoundedMap<string, SessionSteps>(LIVE_SESSIONS);
  /** The catalog's tools as learning keys them: key → server and fingerprint, per server what `reconcile` holds the examples to. */
  private tools = new CatalogFingerprints([]);
  /** The catalog's tools whose annotations say they may destroy data. */
  private destructive = new Set<string>();
  private readonly changes: ChangeEmitter<void>;
  private readonly now: () => number;
  private readonly knobs: LearnedRankingKnobs;
  private readonly rules: StepRules;
  /** The file, while learning is on and has one. */
  private store: LearnedFileStore | undefined;
  /** Lessons taught while the file is read: taught again over what it held. */
  private taughtWhileReading: { lesson: Lesson; at: number }[] = [];
  private isEnabled: boolean;
  private readonly othersSubscription: { dispose(): void } | undefined;

  constructor(private readonly opts: SearchLearningOptions) {
    this.examples = new LearnedExamples(opts.bounds ?? LEARNED_BOUNDS);
    this.now = opts.now ?? Date.now;
    this.knobs = opts.knobs ?? LEARNED_RANKING_KNOBS;
    this.rules = opts.rules ?? STEP_RULES;
    this.isEnabled = opts.enabled;
    this.changes = new ChangeEmitter((err) =>
      opts.log.warn(`search learning: a change listener failed: ${errorMessage(err)}`),
    );
    this.othersSubscription = opts.shared?.onOthers((taught) => this.fromOthers(taught));
    if (this.isEnabled) this.activate();
  }

  get enabled(): boolean {
    return this.isEnabled;
  }

  /** How many past requests are kept. */
  get size(): number {
    return this.examples.size;
  }

  /** The ranking's use of what was learned: a usage signal (core/search/usageSignal.ts). */
  readonly signal: UsageSignal = {
    rerank: (hits, request) => this.rerank(hits, request, () => learnedTermsOf(request.text)),
  };

  /**
   * One search's side of learning: the usage signal that ranks it, and the lesson its answer
   * gives once answered, both from the request's learned terms, made once (`text`: requestText).
   */
  forRequest(text: string): SearchLesson {
    let words: LearnedWord[] | undefined;
    const wordsOf = () => (words ??= learnedWordsOf(text));
    return {
      signal: { rerank: (hits, request) => this.rerank(hits, request, () => wordsOf().map((w) => w.term)) },
      noteAnswer: (sessionId, answer) => {
        if (!this.isEnabled) return;
        this.apply(this.session(sessionId).search(wordsOf(), answer, this.now()));
      },
    };
  }

  /**
   * Resolves once the file is read (at start, or again now if another process changed or
   * deleted it since), or after `maxWaitMs`: a search calls it first.
   */
  ready(maxWaitMs: number): Promise<void> {
    if (!this.isEnabled || !this.store) return Promise.resolve();
    this.store.refresh();
    return this.store.ready(maxWaitMs);
  }

  /**
   * The catalog changed: its tools' fingerprints are what lessons are keyed by, and what was
   * learned for a tool its server no longer lists, or lists with another description or
   * schema, is forgotten.
   */
  syncCatalog(tools: readonly CatalogTool[]): void {
    // Fingerprints are made as reconcile and lessons ask for them: the tools with examples, the tools called.
    this.tools = new CatalogFingerprints(tools);
    this.destructive = new Set(tools.filter((t) => isDestructiveTool(t.annotations)).map((t) => t.key));
    if (!this.isEnabled) return;
    this.store?.refresh();
    const gone = this.examples.reconcile(this.tools);
    if (gone > 0) {
      this.opts.log.info(`search learning: forgot ${gone} learned request(s) of tools that changed or are gone`);
      this.changed();
    }
  }

  /** A find_tools of `sessionId` for `text` (query and keywords) answered `answer` (keys, in order). */
  noteSearch(sessionId: string, text: string, answer: readonly string[]): void {
    this.forRequest(text).noteAnswer(sessionId, answer);
  }

  /** A call ended; only an agent's calls through the gateway teach. */
  noteCall(call: LearnedCall): void {
    if (!this.isEnabled || !call.fromAgent) return;
    const tool = this.tools.tool(call.toolKey);
    const steps = this.sessions.get(call.sessionId);
    if (!tool || !steps) return;
    this.apply(steps.call({ key: call.toolKey, ...tool }, call.outcome === 'ok', this.now()));
  }

  /** What was learned, per tool, for the dashboard; `nameOf` gives a key's client-safe name. */
  view(nameOf: (key: string) => string | undefined): LearnedSearchView {
    if (this.isEnabled) this.store?.refresh();
    return {
      enabled: this.isEnabled,
      requests: this.examples.size,
      maxRequests: this.examples.bounds.maxExamples,
      tools: learnedSummary(this.examples.all(), nameOf),
    };
  }

  /** The user (from the dashboard) vouches for what was learned for the tool `key`: it counts for every session. */
  share(key: string): number {
    if (!this.isEnabled) return 0;
    const n = this.examples.share(key);
    if (n > 0) this.changed();
    return n;
  }

  /** Forgets everything learned, in memory and on disk. */
  forget(): void {
    this.opts.shared?.forget();
    this.examples.clear();
    this.sessions.clear();
    this.taughtWhileReading = [];
    this.store?.remove();
    this.changes.fire();
  }

  setEnabled(enabled: boolean): void {
    if (enabled === this.isEnabled) return;
    this.isEnabled = enabled;
    if (enabled) this.activate();
    else this.deactivate();
    this.changes.fire();
  }

  /** Writes what is pending now. */
  flush(): void {
    this.store?.flush();
  }

  close(): void {
    this.othersSubscription?.dispose();
    this.deactivate();
    this.changes.clear();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  private rerank(hits: readonly RankedTool[], request: UsageRequest, terms: () => string[]): RankedTool[] {
    if (!this.isEnabled) return [...hits];
    this.store?.refresh();
    if (this.examples.size === 0) return [...hits];
    const learned = {
      terms: terms(),
      limit: request.limit,
      catalogSize: this.tools.size,
      documentFrequency: request.documentFrequency,
      keywordTop: request.keywordTop,
      ...(request.sessionId !== undefined && { viewer: this.teacher(request.sessionId) }),
      destructive: (key: string) => this.destructive.has(key),
    };
    return rerankByLearning(hits, this.examples.documents, learned, this.knobs);
  }

  private apply(lessons: readonly Lesson[]): void {
    if (lessons.length === 0) return;
    this.store?.refresh();
    const at = this.now();
    for (const lesson of lessons) {
      this.examples.teach(lesson, at);
      if (this.store?.busy) this.taughtWhileReading.push({ lesson, at });
    }
    this.opts.shared?.append(lessons, at);
    this.changed();
  }

  /** What other replicas taught or forgot (shared lessons). */
  private fromOthers(taught: OthersTaught): void {
    if (!this.isEnabled) return;
    if ('forget' in taught) {
      this.examples.clear();
      this.sessions.clear();
    } else for (const t of taught.lessons) this.examples.teach(t.lesson, t.at);
    this.changes.fire();
  }

  private session(id: string): SessionSteps {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = new SessionSteps(this.teacher(id), this.rules)));
    return s;
  }

  private teacher(sessionId: string): string {
    return teacherId(this.opts.provenance?.(sessionId) ?? sessionId);
  }

  /** Starts reading what the file holds (nothing is created until there is something to write). */
  private activate(): void {
    if (this.opts.shared) {
      for (const t of this.opts.shared.initial()) this.examples.teach(t.lesson, t.at);
      this.examples.reconcile(this.tools);
      return;
    }
    const file = this.opts.file;
    if (!file) return;
    this.store = new LearnedFileStore({
      file,
      log: this.opts.log,
      loaded: (examples) => this.loaded(examples),
      examples: () => this.examples.all(),
      ...(this.opts.readFile && { read: this.opts.readFile }),
    });
    this.store.load();
  }

  /** What the file held replaces what is in memory; lessons taught while it was read are taught again. */
  private loaded(examples: readonly LearnedExample[]): void {
    this.examples.clear();
    this.examples.load(examples);
    for (const { lesson, at } of this.taughtWhileReading) this.examples.teach(lesson, at);
    if (this.taughtWhileReading.length > 0) this.store?.changed();
    this.taughtWhileReading = [];
    // What was learned for tools that changed while this process was not looking goes at once.
    this.examples.reconcile(this.tools);
    this.changes.fire();
  }

  private deactivate(): void {
    this.store?.close();
    this.store = undefined;
    this.examples.clear();
    this.sessions.clear();
    this.taughtWhileReading = [];
  }

  /** Something was learned or forgotten: tell listeners, and write soon. */
  private changed(): void {
    this.changes.fire();
    this.store?.changed();
  }
}
