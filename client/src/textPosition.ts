/** Character offset → zero-based line and character, as editor diagnostics need (pure). */
export function offsetToPosition(text: string, offset: number): { line: number; character: number } {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: end - lineStart };
}
