/**
 * The rules of search learning: which find_tools → call pairs of a gateway session teach what.
 * Pure; one SessionSteps per session turns its searches and calls, in order, into lessons
 * (learnedExamples.ts) — weight changes for (request terms → tool).
 *
 * A *step* is what the agent is doing between two calls: one find_tools, or several in a row
 * (rephrasings), then the call of the tool it chose. The step's words are all its requests'
 * terms, so a tool the agent found only after rephrasing is learned under the words it first
 * tried as well: those are the vocabulary gaps learning is for.
 *
 * 1. The first tool a step calls with success is taught the step's words at weight 1, or
 *    `unshownWeight` when no answer of the step showed it (the agent found it some other way).
 * 2. A call that fails (error, timeout, invalid arguments, cancelled) teaches nothing.
 * 3. Another tool called with success in the same step (no search between) weighs less
 *    (`extraToolWeight`): the step may have needed both, or the first was wrong.
 * 4. A quick re-search — a find_tools within `researchWindowMs` of the step's last call, before
 *    any other call, most of whose words (`researchOverlap`) the step already had — puts what
 *    the step taught in doubt: it weighs `doubtShare` of itself until the step resolves it:
 *    - the same tool called again: restored (the agent checked and came back);
 *    - a different tool called: the doubted lessons count against their tool (net
 *      −`against` × their weight), and the new tool is taught the step's words;
 *    - nothing: they stay at the reduced weight.
 * 5. A search that is not a re-search starts a new step; a call with no search before it in
 *    the session teaches nothing.
 * 6. A session counts as one past request per tool at most, however many steps it takes: what
 *    its steps teach one tool weighs, summed, at most 1 for and 1 against; past that every one
 *    of its lessons for that tool is scaled down so the sum is 1 (the words all count, the weight
 *    does not grow). A session teaches one tool in at most `maxStepsPerTool` steps and at most
 *    `maxTools` tools. Together with the learned ranking's lift bound (learnedLimits.ts) this is
 *    what bounds one session's hold on the ranking, whatever it asks (SECURITY.md).
 *
 * Measured by replay and not kept (bench/src/replay.ts, half the history, dev halves; R@1 at 0%,
 * 10% and 30% silent wrong calls, mean of seeds 1-10, metatool seed 1). Shipped: toolbench
 * .383 .377 .368, mcp-servers .683 .668 .679, workspace-19 .714 .700 .683, metatool .723 .701
 * .656. Credit within a multi-call step (toolbench's requests name several tools and every
 * called tool learns all their words):
 * - each word a called tool's own fields (server, name, title, description, parameter names)
 *   hold only there, not in the other called tools' lessons (a word none or all hold stays in
 *   each): toolbench .383 .377 .366, workspace-19 .655 .655 .655, mcp-servers the same (held
 *   out .714 .701 .651 → .699 .690 .647), metatool .723 .705 .651. It takes from a tool the very
 *   words that are its vocabulary gap when a co-called tool's description uses them ("find
 *   contact … in HubSpot and log a note": hubspot-search-objects lost "contact" to
 *   create-engagement, and the next "find contacts in the CRM" missed it);
 * - those words kept at a share of the weight instead (a second lesson): 0.25: toolbench .384
 *   .379 .368, workspace-19 .683 .669 .669; 0.5: .387 .381 .370, .714 .700 .700, mcp-servers
 *   the same, toolbench held out unchanged (.414 .406 .387), workspace-19 held out .561 → .548
 *   at 0%, mcp-servers .714 .701 → .710 .697; 0.75: .387 .381 .369, .714 .700 .683;
 * - co-called tools at full weight (`extraToolWeight` 1): toolbench .388 .382 .370,
 *   mcp-servers .683 .660 .671;
 * - the tools an answer ranked above a called tool and not called taught against the step's
 *   words (skip-above), at 0.25: toolbench .387 .381 .365, mcp-servers .683 .660 .671,
 *   metatool .696 .658 .582 (0.5: toolbench .387 .376 .364).
 * `unshownWeight` 1 measures better (toolbench .391 .382 .375, metatool .726 .707 .655, the
 * others the same; mcp-servers-multilingual .492 → .485 at 30%), but the replay cannot
 * measure its risk: its wrong calls are always of tools the answer showed, so a call of a tool
 * no answer showed is always right there; in a workspace it may be a tool the agent knew and
 * called for something else. Toolbench's held-out misses at 0% wrong calls (7 requests over the
 * 10 seeds) are siblings of one server the request also fits (Flixbus search-trips for "trip
 * details … on a particular date") or near-copies on other servers (Youtube Search_v3 for
 * Simple YouTube Search, Currency Converter_v3 for _v2, Wayfair for a request that never names
 * the Demo Project): no credit rule reaches them, and even a vote of 12 with a field of 2 at
 * 0% wrong calls scores .427 held out (R@1 at most .467).
 */
import type { Lesson } from './learnedExamples';
import type { LearnedWord } from './learnedTerms';

export interface StepRules {
  unshownWeight: number;
  extraToolWeight: number;
  researchWindowMs: number;
  researchOverlap: number;
  doubtShare: number;
  against: number;
  /** A step keeps at most this many words (its rephrasings' together). */
  maxStepTerms: number;
  /** …and remembers at most this many tools its answers showed (an agent may rephrase a hundred times). */
  maxShown: number;
  /** Rule 6: steps that may teach one tool, and tools one session may teach. */
  maxStepsPerTool: number;
  maxTools: number;
}

export const STEP_RULES: StepRules = {
  unshownWeight: 0.5,
  extraToolWeight: 0.5,
  researchWindowMs: 60_000,
  researchOverlap: 0.6,
  doubtShare: 0.5,
  against: 0.5,
  maxStepTerms: 48,
  maxShown: 256,
  maxStepsPerTool: 16,
  maxTools: 256,
};

/** The tool a call reached, as learning keys it. */
export interface CalledTool {
  key: string;
  server: string;
  fingerprint: string;
}

/** A lesson the step has applied: the net weight the rules gave it, and what rule 6 let it weigh. */
interface Taught {
  tool: CalledTool;
  terms: readonly string[];
  words: readonly string[];
  /** What rules 1-4 gave it. */
  weight: number;
  /** What it weighs in the examples (rule 6). */
  applied: number;
}

interface Step {
  terms: string[];
  /** Each term as it was first typed. */
  typed: Map<string, string>;
  shown: Set<string>;
  called: Set<string>;
  taught: Taught[];
  lastCallAt?: number;
  /** The lessons a quick re-search put in doubt, with the weight each had before. */
  doubted?: { lesson: Taught; before: number }[] | undefined;
}

export class SessionSteps {
  private step: Step | undefined;
  /** Every lesson of the session, per tool (rule 6). */
  private readonly perTool = new Map<string, Taught[]>();

  /** `by`: who the session's lessons are taught by (usage/learnedProvenance.ts). */
  constructor(
    private readonly by: string,
    private readonly rules: StepRules = STEP_RULES,
  ) {}

  /** A find_tools with these request words answered these keys. Returns the lessons it changes. */
  search(words: readonly LearnedWord[], answer: readonly string[], at: number): Lesson[] {
    const terms = words.map((w) => w.term);
    const step = this.step;
    if (!step || step.called.size === 0) {
      // The first search, or a rephrasing before any call: the same step.
      if (step) this.extend(step, words, answer);
      else this.step = this.fresh(words, answer);
      return [];
    }
    if (!this.isResearch(step, terms, at)) {
      this.step = this.fresh(words, answer);
      return [];
    }
    this.extend(step, words, answer);
    if (step.doubted) return [];
    const positive = step.taught.filter((t) => t.weight > 0);
    if (positive.length === 0) return [];
    step.doubted = positive.map((lesson) => ({ lesson, before: lesson.weight }));
    return positive.flatMap((t) => this.adjust(t, t.weight * this.rules.doubtShare));
  }

  /** A call of `tool` ended, with success or not. Returns the lessons it changes. */
  call(tool: CalledTool, ok: boolean, at: number): Lesson[] {
    const step = this.step;
    if (!step || !ok) return [];
    const out: Lesson[] = [];
    if (step.doubted) {
      const doubted = step.doubted;
      step.doubted = undefined;
      if (doubted.some((d) => d.lesson.tool.key === tool.key)) {
        // Back to the tool it doubted: the re-search confirmed it.
        for (const d of doubted) out.push(...this.adjust(d.lesson, d.before));
        step.lastCallAt = at;
        return out;
      }
      for (const d of doubted) out.push(...this.adjust(d.lesson, -this.rules.against * d.before));
      step.called.add(tool.key);
      step.lastCallAt = at;
      out.push(...this.teach(step, tool, 1));
      return out;
    }
    step.lastCallAt = at;
    if (step.called.has(tool.key)) return out;
    step.called.add(tool.key);
    const first = !step.taught.some((t) => t.weight > 0);
    out.push(...this.teach(step, tool, first ? 1 : this.rules.extraToolWeight));
    return out;
  }

  private fresh(words: readonly LearnedWord[], answer: readonly string[]): Step {
    const step: Step = { terms: [], typed: new Map(), shown: new Set(), called: new Set(), taught: [] };
    this.extend(step, words, answer);
    return step;
  }

  private extend(step: Step, words: readonly LearnedWord[], answer: readonly string[]): void {
    for (const { term, word } of words)
      if (step.terms.length < this.rules.maxStepTerms && !step.typed.has(term)) {
        step.terms.push(term);
        step.typed.set(term, word);
      }
    for (const k of answer) if (step.shown.size < this.rules.maxShown) step.shown.add(k);
  }

  /** See rule 4. */
  private isResearch(step: Step, terms: readonly string[], at: number): boolean {
    if (terms.length === 0 || step.lastCallAt === undefined || at - step.lastCallAt > this.rules.researchWindowMs)
      return false;
    const shared = terms.filter((t) => step.terms.includes(t)).length;
    return shared / terms.length >= this.rules.researchOverlap;
  }

  /** Teaches `tool` the step's words at `weight` (× unshownWeight when no answer of the step showed it). */
  private teach(step: Step, tool: CalledTool, weight: number): Lesson[] {
    const w = weight * (step.shown.has(tool.key) ? 1 : this.rules.unshownWeight);
    let lessons = this.perTool.get(tool.key);
    if (!lessons && this.perTool.size >= this.rules.maxTools) return [];
    if (lessons && lessons.length >= this.rules.maxStepsPerTool) return [];
    if (!lessons) this.perTool.set(tool.key, (lessons = []));
    const words = step.terms.map((t) => step.typed.get(t) ?? t);
    const taught: Taught = { tool, terms: [...step.terms], words, weight: 0, applied: 0 };
    step.taught.push(taught);
    lessons.push(taught);
    return this.adjust(taught, w);
  }

  /**
   * Brings a taught lesson's net weight to `to`, and every lesson of its tool to what rule 6
   * lets it weigh; the lessons are the differences.
   */
  private adjust(t: Taught, to: number): Lesson[] {
    t.weight = to;
    const all = this.perTool.get(t.tool.key) ?? [t];
    const sum = (sign: number) => all.reduce((s, x) => s + Math.max(0, sign * x.weight), 0);
    const scale = { for: Math.min(1, 1 / Math.max(sum(1), 1e-9)), against: Math.min(1, 1 / Math.max(sum(-1), 1e-9)) };
    const out: Lesson[] = [];
    for (const x of all) {
      const applied = x.weight * (x.weight > 0 ? scale.for : scale.against);
      const delta = applied - x.applied;
      if (Math.abs(delta) < 1e-12) continue;
      x.applied = applied;
      out.push({
        terms: x.terms,
        words: x.words,
        key: x.tool.key,
        server: x.tool.server,
        fingerprint: x.tool.fingerprint,
        delta,
        by: this.by,
      });
    }
    return out;
  }
}
