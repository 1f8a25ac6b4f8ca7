/**
 * A bounded tail of a child's stderr: the last N lines, each cut to a maximum length, so a
 * server flooding stderr costs a constant amount of memory. The text never reaches stdout.
 */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineLength = 1000,
    /** Called after a chunk completed at least one line (the visible tail changed). */
    private readonly onLines?: () => void,
  ) {}

  /** Feeds a chunk of stderr output (any split; lines end at '\n'). */
  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    // A line that never ends must not grow without bound: flush it, cut.
    if (this.partial.length > this.maxLineLength) {
      parts.push(this.partial);
      this.partial = '';
    }
    // Only the last maxLines complete lines can survive; skip the rest cheaply.
    for (const line of parts.slice(-this.maxLines)) this.add(line.replace(/\r$/, ''));
    if (parts.length > 0) this.onLines?.();
  }

  /** The retained lines, oldest first, including an unterminated last line. */
  snapshot(): string[] {
    const all = this.partial ? [...this.lines, this.cut(this.partial)] : [...this.lines];
    return all.slice(-this.maxLines);
  }

  /** The last non-empty line, for error messages. */
  lastLine(): string | undefined {
    const all = this.snapshot();
    for (let i = all.length - 1; i >= 0; i--) if (all[i].trim()) return all[i].trim();
    return undefined;
  }

  clear(): void {
    this.lines.length = 0;
    this.partial = '';
  }

  private add(line: string): void {
    this.lines.push(this.cut(line));
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }

  private cut(line: string): string {
    return line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line;
  }
}
