/**
 * Small shared pieces of the prediction strategies: picking the top k of a score map and a
 * bounded map that forgets its oldest sessions (live sessions are few; finished ones need
 * not stay in memory forever).
 */
import type { Prediction } from './types';

/** The k best entries of `scores` (ties broken by key for determinism), zero scores dropped. */
export function topPredictions(scores: Map<string, number>, k: number, reason: (key: string) => string): Prediction[] {
  if (k <= 0) return [];
  const entries = [...scores].filter(([, s]) => s > 0);
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return entries.slice(0, k).map(([key, score]) => ({ key, score, reason: reason(key) }));
}

/** Adds `by` to the count of `b` under `a` in a two-level count map. */
export function bump(table: Map<string, Map<string, number>>, a: string, b: string, by = 1): void {
  let row = table.get(a);
  if (!row) table.set(a, (row = new Map()));
  row.set(b, (row.get(b) ?? 0) + by);
}

/** A Map that drops its least recently inserted entries past `capacity`. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (super.has(key)) super.delete(key);
    super.set(key, value);
    if (this.size > this.capacity) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return this;
  }
}
