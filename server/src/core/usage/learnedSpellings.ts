/**
 * How each learned term was written: search learning keeps stems ("rememb", "talli"), which rank
 * well and read badly, so the dashboard shows the word a request last used for each ("remember",
 * "tally"). Only the spellings of terms some kept example holds go to the learned file; in
 * memory at most MAX_SPELLINGS, the least recently used going first. Pure.
 */
import { BoundedMap } from './ranking';

/** Enough for every term of a full learned file (4,000 examples rarely share fewer words). */
export const MAX_SPELLINGS = 20_000;

export class LearnedSpellings {
  private readonly byTerm = new BoundedMap<string, string>(MAX_SPELLINGS);

  /** A request's terms with their words (learnedSpellingsOf): the latest spelling wins. */
  note(spellings: ReadonlyMap<string, string>): void {
    for (const [term, word] of spellings) this.byTerm.set(term, word);
  }

  /** The word for `term`, or the term itself when no request spelled it here. */
  spell(term: string): string {
    return this.byTerm.get(term) ?? term;
  }

  /** The spellings of `terms` that are known, for the learned file. */
  of(terms: Iterable<string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const t of terms) {
      const word = this.byTerm.get(t);
      if (word !== undefined) out[t] = word;
    }
    return out;
  }

  clear(): void {
    this.byTerm.clear();
  }
}
