/**
 * How many servers may be launching at once. A stdio server's first moments are its runtime
 * booting, mostly CPU: twenty-two of them at once on two cores leave MCP Lens a twenty-third of
 * the machine while the agent waits for its first answer, and
 * finish no sooner than a few at a time would. A slot is held from spawn until the server
 * listed its tools or failed, or for at most `slotMs`: a slow or hanging server stops holding
 * one, so it never delays the servers behind it by more than that.
 */
export class LaunchWindow {
  private launching = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly slotMs: number,
  ) {}

  /** Resolves with the slot's release once one is free; releasing twice is harmless. */
  async acquire(): Promise<() => void> {
    if (this.launching < this.size) this.launching++;
    // A released slot passes straight to the next in line (launching stays counted).
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      const next = this.waiting.shift();
      if (next) next();
      else this.launching--;
    };
    const timer = setTimeout(release, this.slotMs);
    timer.unref();
    return release;
  }
}
