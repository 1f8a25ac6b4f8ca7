/**
 * Makes sure no upstream process outlives MCP Lens, children of upstreams included:
 *  - every stdio upstream runs as the leader of its own process group (POSIX; see
 *    core/processTree.ts), registered here by pid when it is spawned;
 *  - stopping one ends its whole tree: SIGTERM to the group, SIGKILL after a grace period
 *    (`taskkill /T /F` on Windows), and an upstream that exits by itself has what it left behind
 *    in its group ended the same way;
 *  - when this process exits (normally, through process.exit, or after SIGINT/SIGTERM, which the
 *    composition roots turn into an exit), every tree still registered gets SIGKILL at once;
 *  - when this process is killed outright (`kill -9`) or crashes, a watchdog process that holds
 *    a pipe from this one sees it close and ends every tree still registered (processTree.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  TERMINATION_GRACE_MS,
  spawnsProcessGroup,
  terminationSteps,
  watchdogCommand,
  type KillStep,
} from '../../core/processTree';
import { isProcessAlive, isProcessGroupAlive } from '../processProbe';

const live = new Set<number>();
let hooked = false;
let watchdog: ChildProcess | undefined;
let watchdogFailed = false;

function run(step: KillStep): void {
  try {
    if (step.kind === 'signal') process.kill(step.group ? -step.pid : step.pid, step.signal);
    else spawnSync(step.command, step.args, { stdio: 'ignore', windowsHide: true, timeout: 10_000 });
  } catch {
    // Already gone.
  }
}

function killAllSync(): void {
  for (const pid of live) for (const step of terminationSteps(process.platform, pid, 'force')) run(step);
  live.clear();
}

/** Tells the watchdog (started on first use) that a tree was added or is gone. */
function tellWatchdog(line: string): void {
  if (watchdogFailed) return;
  if (!watchdog) {
    const { command, args } = watchdogCommand(process.platform, process.execPath);
    try {
      watchdog = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'], detached: true, windowsHide: true });
    } catch {
      watchdogFailed = true;
      return;
    }
    watchdog.on('error', () => {
      watchdogFailed = true;
      watchdog = undefined;
    });
    watchdog.stdin?.on('error', () => undefined);
    // Neither the watchdog nor its pipe keeps this process running.
    watchdog.unref();
    (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }
  watchdog.stdin?.write(`${line}\n`);
}

/** Registers a spawned upstream (the leader of its tree). */
export function trackChild(pid: number): void {
  live.add(pid);
  tellWatchdog(`+${pid}`);
  if (!hooked) {
    hooked = true;
    process.on('exit', killAllSync);
  }
}

function untrackChild(pid: number): void {
  if (live.delete(pid)) tellWatchdog(`-${pid}`);
}

/** True while any process of the tree led by `pid` remains (its group, on POSIX). */
function treeAlive(pid: number): boolean {
  return spawnsProcessGroup(process.platform) ? isProcessGroupAlive(pid) : isProcessAlive(pid);
}

/**
 * Resolves once `check()` is false, or after `ms` (polling: the group's other members are not our
 * children, so nothing signals their end). The timers keep the event loop alive, for at most
 * `ms`: a close that awaits the end of a tree must not be left pending because nothing else
 * holds the process (it would then exit with the tree's end unconfirmed).
 */
async function whileTrue(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

/**
 * Ends the tree led by `pid`: the graceful steps, then, once the leader exited (`exited`) and
 * the rest of the tree is gone or `graceMs` passed, the forced ones for whatever remains.
 */
export async function terminate(pid: number, exited: Promise<void>, graceMs = TERMINATION_GRACE_MS): Promise<void> {
  const started = Date.now();
  for (const step of terminationSteps(process.platform, pid, 'graceful')) run(step);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
  await Promise.race([exited, grace]);
  clearTimeout(timer);
  await whileTrue(() => treeAlive(pid), Math.max(0, graceMs - (Date.now() - started)));
  if (treeAlive(pid) || isProcessAlive(pid)) {
    for (const step of terminationSteps(process.platform, pid, 'force')) run(step);
    let last: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (last = setTimeout(r, 500)))]);
    clearTimeout(last);
  }
  untrackChild(pid);
}

/**
 * The leader exited by itself (a crash, or it quit): whatever it left running in its tree is
 * ended too, then the tree is forgotten.
 */
export function reapTree(pid: number): void {
  if (!live.has(pid)) return;
  void terminate(pid, Promise.resolve());
}
