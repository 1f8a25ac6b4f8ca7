/**
 * What search learning knows: past requests (their terms, learnedTerms.ts) and the tool each led
 * to, with a net weight — positive when the words led to the tool, negative when they are known
 * not to (searchSteps.ts decides) — and who taught it (`by`: usage/learnedProvenance.ts). Pure and bounded:
 * - one example per (teacher, tool, set of terms): the same teacher's same request leading to the
 *   same tool again adds to its weight, which saturates at ±LEARNED_BOUNDS.maxWeight — one past
 *   request, so no example, however often taught or however forged, weighs more than one;
 * - at most `maxPerTool` examples of one tool and `maxExamples` in all; past either, the
 *   example taught least recently by the teacher holding the most (of that tool, then of all)
 *   goes first: one teacher (one workspace's user) loses its oldest, as a plain least-recent rule
 *   would, but a session pouring in lessons pushes out its own before anyone else's once it
 *   holds the most;
 * - each example carries the fingerprint of the tool it was learned for (toolFingerprint.ts): a
 *   lesson about a tool whose description or schema changed since, or that its server no longer
 *   lists, is forgotten (`reconcile`).
 * Who may read an example is the learned documents' business (learnedDocuments.ts), kept in step
 * tool by tool.
 */
import { LearnedDocuments } from './learnedDocuments';

export interface LearnedExample {
  /** The request's terms, sorted and distinct. */
  readonly terms: readonly string[];
  /** The words as typed, one per term (same order): what a person is shown. */
  readonly words: readonly string[];
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
  /** Who taught it (usage/learnedProvenance.ts): an opaque id, never a session's own. */
  readonly by: string;
  /** The user confirmed it from the dashboard: it counts for every session. */
  readonly shared?: true;
}

export interface LearnedBounds {
  maxExamples: number;
  maxPerTool: number;
  maxWeight: number;
}

/**
 * 4,000 examples of at most 24 terms are about 1 MB on disk (learnedFile.ts); a tool keeps at
 * most 64 ways of asking for it, so a few busy tools cannot push out what was learned for the
 * rest; an example weighs one past request at most.
 */
export const LEARNED_BOUNDS: LearnedBounds = { maxExamples: 4000, maxPerTool: 64, maxWeight: 1 };

/** A weight this close to zero is no lesson: the example goes. */
const NEGLIGIBLE = 1e-6;

/** One lesson: these terms (typed as `words`) → this tool, by `delta`, taught by `by`. */
export interface Lesson {
  terms: readonly string[];
  words: readonly string[];
  key: string;
  server: string;
  fingerprint: string;
  delta: number;
  by: string;
}

/** Per server that listed its tools: key → fingerprint of each (a Map of Maps will do). */
export interface ListedFingerprints {
  get(server: string): { get(key: string): string | undefined } | undefined;
}

export class LearnedExamples {
  /** By identity (teacher + key + terms), in order of last teaching: the first is the least recent. */
  private readonly byId = new Map<string, LearnedExample>();
  /** Each tool's examples, by identity. */
  private readonly byTool = new Map<string, Map<string, LearnedExample>>();
  /** Per teacher, how many examples it has of each tool, and in all. */
  private readonly byTeacher = new Map<string, Map<string, number>>();
  private readonly teacherTotals = new Map<string, number>();
  /** What the ranking reads, each reader's way. */
  readonly documents = new LearnedDocuments(
    (key) => this.byTool.get(key)?.values() ?? [],
    (teacher) => this.byTeacher.get(teacher)?.keys() ?? [],
  );

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
    const { terms, words } = sortedPairs(lesson.terms, lesson.words);
    const id = identity(lesson.by, lesson.key, terms);
    const old = this.byId.get(id);
    const same = old !== undefined && old.fingerprint === lesson.fingerprint;
    if (old) this.remove(id, old);
    const weight = clamp((same ? old.weight : 0) + lesson.delta, this.bounds.maxWeight);
    if (Math.abs(weight) < NEGLIGIBLE) return;
    const count = (same ? old.count : 0) + (lesson.delta > 0 ? 1 : 0);
    this.insert(id, {
      terms,
      words,
      key: lesson.key,
      server: lesson.server,
      fingerprint: lesson.fingerprint,
      weight,
      count,
      at,
      by: lesson.by,
      ...(same && old.shared && { shared: true as const }),
    });
    this.evict(lesson.key);
  }

  /** The user vouches for what was learned for `key` (the dashboard): it counts for every session. Returns how many. */
  share(key: string): number {
    const examples = [...(this.byTool.get(key) ?? [])];
    for (const [id, e] of examples) if (!e.shared) this.byId.set(id, { ...e, shared: true });
    for (const [id] of examples) this.byTool.get(key)!.set(id, this.byId.get(id)!);
    if (examples.length > 0) this.documents.changed(key);
    return examples.length;
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
    this.byTool.clear();
    this.byTeacher.clear();
    this.teacherTotals.clear();
    this.documents.clear();
  }

  /** Loads examples read back from disk (already validated), oldest first, within the bounds. */
  load(examples: readonly LearnedExample[]): void {
    for (const e of examples) {
      const { terms, words } = sortedPairs(e.terms, e.words);
      const id = identity(e.by, e.key, terms);
      const old = this.byId.get(id);
      if (old) this.remove(id, old);
      const weight = clamp(e.weight, this.bounds.maxWeight);
      if (Math.abs(weight) < NEGLIGIBLE) continue;
      this.insert(id, { ...e, terms, words, weight });
      this.evict(e.key);
    }
  }

  private insert(id: string, e: LearnedExample): void {
    this.byId.set(id, e);
    let tool = this.byTool.get(e.key);
    if (!tool) this.byTool.set(e.key, (tool = new Map()));
    tool.set(id, e);
    let taught = this.byTeacher.get(e.by);
    if (!taught) this.byTeacher.set(e.by, (taught = new Map()));
    taught.set(e.key, (taught.get(e.key) ?? 0) + 1);
    this.teacherTotals.set(e.by, (this.teacherTotals.get(e.by) ?? 0) + 1);
    this.documents.changed(e.key);
  }

  private remove(id: string, e: LearnedExample): void {
    this.byId.delete(id);
    const tool = this.byTool.get(e.key);
    tool?.delete(id);
    if (tool?.size === 0) this.byTool.delete(e.key);
    const taught = this.byTeacher.get(e.by);
    const n = (taught?.get(e.key) ?? 1) - 1;
    if (n > 0) taught!.set(e.key, n);
    else taught?.delete(e.key);
    if (taught?.size === 0) this.byTeacher.delete(e.by);
    const total = (this.teacherTotals.get(e.by) ?? 1) - 1;
    if (total > 0) this.teacherTotals.set(e.by, total);
    else this.teacherTotals.delete(e.by);
    this.documents.changed(e.key);
  }

  /** Keeps the bounds after an example of `key` was added (the file's comment). */
  private evict(key: string): void {
    const tool = this.byTool.get(key);
    if (tool && tool.size > this.bounds.maxPerTool) {
      const counts = new Map<string, number>();
      for (const e of tool.values()) counts.set(e.by, (counts.get(e.by) ?? 0) + 1);
      this.removeOldestOf(tool, counts);
    }
    while (this.byId.size > this.bounds.maxExamples) this.removeOldestOf(this.byId, this.teacherTotals);
  }

  /** Removes, of `examples` (in order of last teaching), the oldest of a teacher holding the most by `counts`. */
  private removeOldestOf(examples: ReadonlyMap<string, LearnedExample>, counts: ReadonlyMap<string, number>): void {
    const most = Math.max(...counts.values());
    for (const [id, e] of examples) if (counts.get(e.by) === most) return this.remove(id, e);
  }
}

function identity(by: string, key: string, sortedTerms: readonly string[]): string {
  return `${by}\u0000${key}\u0000${sortedTerms.join(' ')}`;
}

/** Terms sorted and distinct, each with its typed word (the term itself where none was given). */
function sortedPairs(terms: readonly string[], words: readonly string[]): { terms: string[]; words: string[] } {
  const pairs = new Map<string, string>();
  terms.forEach((t, i) => pairs.has(t) || pairs.set(t, words[i] ?? t));
  const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { terms: sorted.map((p) => p[0]), words: sorted.map((p) => p[1]) };
}

function clamp(x: number, max: number): number {
  return Math.max(-max, Math.min(max, x));
}
