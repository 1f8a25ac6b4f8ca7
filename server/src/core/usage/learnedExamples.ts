/**
 * What search learning knows: past requests (their terms, learnedTerms.ts) and the tool each led
 * to, with a net weight — positive when the words led to the tool, negative when they are known
 * not to (searchSteps.ts decides). Pure and bounded:
 * - one example per (tool, set of terms): the same request leading to the same tool again adds
 *   to its weight, which saturates at ±LEARNED_BOUNDS.maxWeight;
 * - at most `maxPerTool` examples of one tool and `maxExamples` in all; past either, the
 *   example taught least recently goes first (of that tool, then of all);
 * - each example carries the fingerprint of the tool it was learned for (toolFingerprint.ts): a
 *   lesson about a tool whose description or schema changed since, or that its server no longer
 *   lists, is forgotten (`reconcile`).
 * The learned documents the ranking reads (learnedDocuments.ts) are kept in step, example by
 * example.
 */
import { LearnedDocuments } from './learnedDocuments';

export interface LearnedExample {
  /** The request's terms, sorted and distinct. */
  readonly terms: readonly string[];
  /** The tool's catalog key (`server/originalName`). */
  readonly key: string;
  /** Its server, for reconcile (a key is compared whole, never split). */
  readonly server: string;
  /** The tool's fingerprint when it was learned. */
  readonly fingerprint: string;
  /** Net weight: > 0 the words lead to the tool, < 0 they are known not to. */
  readonly weight: number;
  /** How many lessons taught it. */
  readonly count: number;
  /** When it was last taught (epoch ms). */
  readonly at: number;
}

export interface LearnedBounds {
  maxExamples: number;
  maxPerTool: number;
  maxWeight: number;
}

/**
 * 4,000 examples of at most 24 terms are about 600 KB on disk (learnedFile.ts); a tool keeps at
 * most 64 ways of asking for it, so a few busy tools cannot push out what was learned for the rest.
 */
export const LEARNED_BOUNDS: LearnedBounds = { maxExamples: 4000, maxPerTool: 64, maxWeight: 4 };

/** A weight this close to zero is no lesson: the example goes. */
const NEGLIGIBLE = 1e-6;

/** One lesson: these terms → this tool, by `delta`. */
export interface Lesson {
  terms: readonly string[];
  key: string;
  server: string;
  fingerprint: string;
  delta: number;
}

/** Per server that listed its tools: key → fingerprint of each (a Map of Maps will do). */
export interface ListedFingerprints {
  get(server: string): { get(key: string): string | undefined } | undefined;
}

export class LearnedExamples {
  /** By identity (key + terms), in order of last teaching: the first is the least recent. */
  private readonly byId = new Map<string, LearnedExample>();
  private readonly perTool = new Map<string, number>();
  /** Every example's words, per tool: what the ranking reads. */
  readonly documents = new LearnedDocuments();

  constructor(readonly bounds: LearnedBounds = LEARNED_BOUNDS) {}

  get size(): number {
    return this.byId.size;
  }

  /** Every example, least recently taught first. */
  all(): IterableIterator<LearnedExample> {
    return this.byId.values();
  }

  /** Applies one lesson at time `at`; a lesson about a tool whose fingerprint changed starts afresh. */
  teach(lesson: Lesson, at: number): void {
    if (lesson.terms.length === 0 || !Number.isFinite(lesson.delta) || lesson.delta === 0) return;
    const terms = [...new Set(lesson.terms)].sort();
    const id = identity(lesson.key, terms);
    const old = this.byId.get(id);
    const same = old !== undefined && old.fingerprint === lesson.fingerprint;
    if (old) this.remove(id, old);
    const weight = clamp((same ? old.weight : 0) + lesson.delta, this.bounds.maxWeight);
    if (Math.abs(weight) < NEGLIGIBLE) return;
    const count = (same ? old.count : 0) + (lesson.delta > 0 ? 1 : 0);
    this.insert(id, {
      terms,
      key: lesson.key,
      server: lesson.server,
      fingerprint: lesson.fingerprint,
      weight,
      count,
      at,
    });
    this.evict(lesson.key);
  }

  /**
   * Forgets what no longer fits the catalog: for each server in `listed` (servers that listed
   * their tools), the examples of a tool it no longer has, or whose fingerprint changed.
   * Servers not in `listed` (stopped, starting, failing) keep theirs. Returns how many went.
   */
  reconcile(listed: ListedFingerprints): number {
    let gone = 0;
    for (const [id, e] of [...this.byId]) {
      const tools = listed.get(e.server);
      if (!tools || tools.get(e.key) === e.fingerprint) continue;
      this.remove(id, e);
      gone++;
    }
    return gone;
  }

  /** Forgets everything. */
  clear(): void {
    this.byId.clear();
    this.perTool.clear();
    this.documents.clear();
  }

  /** Loads examples read back from disk (already validated), oldest first, within the bounds. */
  load(examples: readonly LearnedExample[]): void {
    for (const e of examples) {
      const terms = [...new Set(e.terms)].sort();
      const id = identity(e.key, terms);
      const old = this.byId.get(id);
      if (old) this.remove(id, old);
      const weight = clamp(e.weight, this.bounds.maxWeight);
      if (Math.abs(weight) < NEGLIGIBLE) continue;
      this.insert(id, { ...e, terms, weight });
      this.evict(e.key);
    }
  }

  private insert(id: string, e: LearnedExample): void {
    this.byId.set(id, e);
    this.perTool.set(e.key, (this.perTool.get(e.key) ?? 0) + 1);
    this.documents.add(e);
  }

  private remove(id: string, e: LearnedExample): void {
    this.byId.delete(id);
    const n = (this.perTool.get(e.key) ?? 1) - 1;
    if (n > 0) this.perTool.set(e.key, n);
    else this.perTool.delete(e.key);
    this.documents.remove(e);
  }

  /** Keeps the bounds after an example of `key` was added: its least recent first, then the least recent of all. */
  private evict(key: string): void {
    if ((this.perTool.get(key) ?? 0) > this.bounds.maxPerTool) {
      for (const [id, e] of this.byId) {
        if (e.key !== key) continue;
        this.remove(id, e);
        break;
      }
    }
    while (this.byId.size > this.bounds.maxExamples) {
      const first = this.byId.entries().next();
      if (first.done) break;
      this.remove(first.value[0], first.value[1]);
    }
  }
}

function identity(key: string, sortedTerms: readonly string[]): string {
  return `${key}\u0000${sortedTerms.join(' ')}`;
}

function clamp(x: number, max: number): number {
  return Math.max(-max, Math.min(max, x));
}
