/**
 * The one answer to "is process N alive?" and "is process N an MCP Lens process of this user?".
 * Every caller asks here: the child reaper (is my upstream still there?), the writer lock (is
 * the holder of this lock still there?) and `mcp-lens stats` (is the gateway a gateway.json
 * names really ours?). A file can name any pid: pid 1 exists (signalling it fails with EPERM,
 * which still means "alive"), and a reused pid may belong to anything.
 *
 * MCP Lens processes mark themselves with `markLensProcess` (their process title starts with
 * `mcp-lens`), which shows in /proc/N/cmdline and `ps`. That a process is ours is read from
 * /proc on Linux and `ps` on macOS and BSD; on Windows only liveness is known (the gateway's
 * secret proof is what holds there).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const LENS_PROCESS_TITLE = 'mcp-lens';

/** Marks this process as MCP Lens (`mcp-lens serve`, `mcp-lens sidecar`), for isLensProcess. */
export function markLensProcess(role: string): void {
  try {
    process.title = `${LENS_PROCESS_TITLE} ${role}`;
  } catch {
    // Some hosts forbid it; the process is then not recognized, which fails closed.
  }
}

export interface ProcessProbe {
  /** The pid exists (ours or not). */
  alive: boolean;
  /** It runs as this user; undefined where that cannot be told. */
  sameUser?: boolean;
  /** It is an MCP Lens process (marked); undefined where that cannot be told. */
  lens?: boolean;
}

/** True when a process with this pid exists, whoever owns it. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but we may not signal it. Only ESRCH means gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while any process of the process group `pgid` exists (POSIX; a group's id is its leader's pid). */
export function isProcessGroupAlive(pgid: number): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the pid is alive, runs as this user and is an MCP Lens process. */
export function probeProcess(pid: number, platform: NodeJS.Platform = process.platform): ProcessProbe {
  if (!isProcessAlive(pid)) return { alive: false };
  if (platform === 'linux') return probeProc(pid);
  if (platform === 'win32') return { alive: true };
  return probePs(pid);
}

/**
 * CPU time process N has used (user + system, ms), on Linux from /proc; undefined elsewhere
 * or when it cannot be read. Counted in the kernel's clock ticks, which Linux reports at
 * 100 per second to user space whatever its internal timer.
 */
export function processCpuMs(pid: number, platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Alive, this user's, and MCP Lens: what a file in a workspace must prove before it is believed. */
export function isOwnLensProcess(pid: number): boolean {
  const p = probeProcess(pid);
  return p.alive && p.sameUser === true && p.lens === true;
}

/** Alive and (where it can be told) this user's: a lock held by someone else's process is not ours to honour. */
export function isOwnProcessAlive(pid: number): boolean {
  const p = probeProcess(pid);
  return p.alive && p.sameUser !== false;
}

function probeProc(pid: number): ProcessProbe {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const out: ProcessProbe = { alive: true, lens: isLensCommand(cmdline.split('\0')[0] ?? '') };
    if (uid !== undefined && typeof process.getuid === 'function') out.sameUser = Number(uid) === process.getuid();
    return out;
  } catch {
    // It ended between the two reads, or /proc is hidden: nothing is known but that it was alive.
    return { alive: isProcessAlive(pid) };
  }
}

function probePs(pid: number): ProcessProbe {
  try {
    const out = execFileSync('ps', ['-o', 'uid=', '-o', 'command=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const m = /^\s*(\d+)\s+(.*)$/m.exec(out);
    if (!m) return { alive: isProcessAlive(pid) };
    const probe: ProcessProbe = { alive: true, lens: isLensCommand(m[2]!) };
    if (typeof process.getuid === 'function') probe.sameUser = Number(m[1]) === process.getuid();
    return probe;
  } catch {
    return { alive: isProcessAlive(pid) };
  }
}

function isLensCommand(command: string): boolean {
  return command === LENS_PROCESS_TITLE || command.startsWith(`${LENS_PROCESS_TITLE} `);
}
