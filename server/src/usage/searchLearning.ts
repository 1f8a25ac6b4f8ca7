/**
 * Search that learns from the workspace (mcpLens.search.learnFromUsage, on by default): every
 * find_tools → call pair of a gateway session is a labelled example of this user's words for
 * this catalog's tools. The rules of what teaches what are core/usage/searchSteps.ts; what is
 * kept, bounded, is core/usage/learnedExamples.ts; how it ranks (each tool's learned words
 * against the request, in the pipeline's last stage) is core/usage/learnedRanking.ts. This class holds them per workspace: a SessionSteps per live session, the
 * examples, the catalog's tool fingerprints (a changed or removed tool forgets what was learned
 * for it), and the file they are kept in (adapters/usage/learnedFile.ts: the user's state
 * folder, 0600, never sent anywhere).
 *
 * The bench's replay (bench/src/replay.ts) drives this same class, in memory, with its own clock.
 */
import { dirname, join } from 'node:path';
import type { LearnedSearchView } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { ChangeEmitter } from '../core/changeEmitter';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import type { RankedTool, UsageRequest, UsageSignal } from '../core/search/types';
import { LEARNED_BOUNDS, LearnedExamples, type LearnedBounds, type Lesson } from '../core/usage/learnedExamples';
import { learnedSummary } from '../core/usage/learnedSummary';
import { LearnedSpellings } from '../core/usage/learnedSpellings';
import { learnedSpellingsOf, learnedTermsOf } from '../core/usage/learnedTerms';
import { LEARNED_RANKING_KNOBS, rerankByLearning, type LearnedRankingKnobs } from '../core/usage/learnedRanking';
import { CatalogFingerprints } from '../core/usage/catalogFingerprints';
import { BoundedMap } from '../core/usage/ranking';
import { SessionSteps, STEP_RULES, type StepRules } from '../core/usage/searchSteps';
import type { CallOutcome } from '../core/usage/types';
import {
  ensureLearnedFolder,
  learnedFileStamp,
  readLearnedFile,
  removeLearnedFile,
  writeLearnedFile,
} from '../adapters/usage/learnedFile';
import { WriterLock } from '../adapters/writerLock';
import type { OthersTaught, SharedLessons } from '../adapters/state/pgLessons';

/** Live sessions whose current step is remembered. */
const LIVE_SESSIONS = 2000;
/** A burst of lessons is written once, this long after the first. */
const WRITE_DELAY_MS = 1000;

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
  /** How the kept terms were written, for the dashboard. */
  private readonly spellings = new LearnedSpellings();
  private readonly sessions = new BoundedMap<string, SessionSteps>(LIVE_SESSIONS);
  /** The catalog's tools as learning keys them: key → server and fingerprint, per server what `reconcile` holds the examples to. */
  private tools = new CatalogFingerprints([]);
  private readonly changes: ChangeEmitter<void>;
  private readonly now: () => number;
  private readonly knobs: LearnedRankingKnobs;
  private readonly rules: StepRules;
  /** Taken at the first write: a one-shot command that only searches never takes it from a gateway. */
  private lock: WriterLock | undefined;
  private lockRefusedLogged = false;
  /** Whether the file is in use (enabled, with a file, opened). */
  private opened = false;
  /** The file as this process last read or wrote it (learnedFileStamp). */
  private stamp: string | undefined;
  private writeTimer: NodeJS.Timeout | undefined;
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
    let spelled: Map<string, string> | undefined;
    let terms: string[] | undefined;
    const spelledOf = () => (spelled ??= learnedSpellingsOf(text));
    const termsOf = () => (terms ??= [...spelledOf().keys()]);
    return {
      signal: { rerank: (hits, request) => this.rerank(hits, request, termsOf) },
      noteAnswer: (sessionId, answer) => {
        if (!this.isEnabled) return;
        this.refresh();
        this.spellings.note(spelledOf());
        this.apply(this.session(sessionId).search(termsOf(), answer, this.now()));
      },
    };
  }

  /**
   * The catalog changed: its tools' fingerprints are what lessons are keyed by, and what was
   * learned for a tool its server no longer lists, or lists with another description or
   * schema, is forgotten.
   */
  syncCatalog(tools: readonly CatalogTool[]): void {
    // Fingerprints are made as reconcile and lessons ask for them: the tools with examples, the tools called.
    this.tools = new CatalogFingerprints(tools);
    if (!this.isEnabled) return;
    this.refresh();
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
    if (this.isEnabled) this.refresh();
    return {
      enabled: this.isEnabled,
      requests: this.examples.size,
      maxRequests: this.examples.bounds.maxExamples,
      tools: learnedSummary(this.examples.all(), nameOf, (term) => this.spellings.spell(term)),
    };
  }

  /** Forgets everything learned, in memory and on disk. */
  forget(): void {
    this.opts.shared?.forget();
    this.examples.clear();
    this.spellings.clear();
    this.sessions.clear();
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    if (this.opts.file) {
      try {
        removeLearnedFile(this.opts.file);
      } catch (err) {
        this.opts.log.warn(`search learning: cannot delete ${this.opts.file}: ${errorMessage(err)}`);
      }
      this.stamp = undefined;
    }
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
    if (this.writeTimer === undefined) return;
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    this.write();
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
    this.refresh();
    if (this.examples.size === 0) return [...hits];
    const learned = {
      terms: terms(),
      limit: request.limit,
      catalogSize: this.tools.size,
      documentFrequency: request.documentFrequency,
      keywordTop: request.keywordTop,
    };
    return rerankByLearning(hits, this.examples.documents, learned, this.knobs);
  }

  private apply(lessons: readonly Lesson[]): void {
    if (lessons.length === 0) return;
    this.refresh();
    const at = this.now();
    for (const lesson of lessons) this.examples.teach(lesson, at);
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
    if (!s) this.sessions.set(id, (s = new SessionSteps(this.rules)));
    return s;
  }

  /** Reads what the file holds (nothing is created until there is something to write). Never throws. */
  private activate(): void {
    if (this.opts.shared) {
      for (const t of this.opts.shared.initial()) this.examples.teach(t.lesson, t.at);
      this.examples.reconcile(this.tools);
      return;
    }
    const file = this.opts.file;
    if (!file) return;
    this.opened = true;
    try {
      this.reload();
    } catch (err) {
      this.opts.log.warn(`search learning: cannot read ${file} (${errorMessage(err)})`);
    }
  }

  private deactivate(): void {
    this.flush();
    this.lock?.release();
    this.lock = undefined;
    this.opened = false;
    this.examples.clear();
    this.spellings.clear();
    this.sessions.clear();
    this.stamp = undefined;
  }

  /** Re-reads the file when another process rewrote or deleted it (a `mcp-lens forget`, the writer). */
  private refresh(): void {
    const file = this.opts.file;
    if (!file || !this.opened || learnedFileStamp(file) === this.stamp) return;
    this.reload();
    this.changes.fire();
  }

  private reload(): void {
    const file = this.opts.file!;
    this.stamp = learnedFileStamp(file);
    this.examples.clear();
    const read = readLearnedFile(file);
    // Deleted (`mcp-lens forget` in another terminal): the words go too. Else a request's spelling noted before its call teaches stays.
    if ('missing' in read) this.spellings.clear();
    if ('refused' in read) this.opts.log.warn(`search learning: ignoring ${file}: ${read.refused}`);
    if (!('examples' in read)) return;
    if (read.dropped > 0)
      this.opts.log.warn(
        `search learning: dropped ${read.dropped} damaged entr${read.dropped === 1 ? 'y' : 'ies'} of ${file}`,
      );
    this.examples.load(read.examples);
    this.spellings.note(new Map(Object.entries(read.spellings)));
    // What was learned for tools that changed while this process was not looking goes at once.
    this.examples.reconcile(this.tools);
  }

  /** Something was learned or forgotten: tell listeners, and write soon. */
  private changed(): void {
    this.changes.fire();
    if (!this.opts.file || !this.opened || this.writeTimer !== undefined) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      this.write();
    }, WRITE_DELAY_MS);
    this.writeTimer.unref();
  }

  /** Writes the file when this process is its writer (the first to write takes the lock; another keeps its lessons in memory). */
  private write(): void {
    const file = this.opts.file;
    if (!file || !this.opened) return;
    try {
      ensureLearnedFolder(file);
      this.lock ??= new WriterLock(join(dirname(file), 'lock'));
      if (!this.lock.tryAcquire()) {
        if (!this.lockRefusedLogged)
          this.opts.log.info(
            `search learning: ${file} is written by another process; what this one learns stays in its memory`,
          );
        this.lockRefusedLogged = true;
        return;
      }
      const examples = [...this.examples.all()];
      writeLearnedFile(file, examples, this.spellings.of(new Set(examples.flatMap((e) => e.terms))));
      this.stamp = learnedFileStamp(file);
    } catch (err) {
      this.opts.log.warn(`search learning: cannot write ${file}: ${errorMessage(err)}`);
    }
  }
}
