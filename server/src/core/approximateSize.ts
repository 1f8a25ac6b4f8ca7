/** Bytes of the strings in a value (what dominates its JSON size); stops counting past `cap`. */
export function approximateSize(value: unknown, cap = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length && total <= cap) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length;
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) ((total += k.length), stack.push(x));
    else total += 8;
  }
  return total;
}
