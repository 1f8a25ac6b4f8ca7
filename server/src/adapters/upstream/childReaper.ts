/**
 * Makes sure no upstream process outlives MCP Lens: every spawned pid is registered here and
 * killed synchronously when our process exits, and stop() escalates SIGTERM → SIGKILL.
 *
 * Note: Node emits 'exit' on normal exit and process.exit(), not on a fatal signal; the
 * composition roots turn SIGINT/SIGTERM into process.exit(). Children also see EOF on stdin
 * when we die, which MCP stdio servers treat as shutdown.
 */
const live = new Set<number>();
let hooked = false;

function killAllSync(): void {
  for (const pid of live) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

export function trackChild(pid: number): void {
  live.add(pid);
  if (!hooked) {
    hooked = true;
    process.on('exit', killAllSync);
  }
}

function untrackChild(pid: number): void {
  live.delete(pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM means it exists but is not ours to signal.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SIGTERM, then SIGKILL if still alive after graceMs. Resolves when `exited` settles (the
 * transport saw the process close) or shortly after the SIGKILL.
 */
export async function terminate(pid: number, exited: Promise<void>, graceMs = 2000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), graceMs)));
  const outcome = await Promise.race([exited.then(() => 'exited' as const), grace]);
  clearTimeout(timer);
  if (outcome === 'timeout' && isAlive(pid)) {
    signal('SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 500))]);
  }
  untrackChild(pid);
}
