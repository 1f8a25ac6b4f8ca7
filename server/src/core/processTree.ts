/**
 * How an upstream's whole process tree is started and ended, per platform; pure (the platform
 * is passed in) so every branch is tested here on any machine. The adapter
 * (adapters/upstream/childReaper.ts) carries the steps out.
 *
 * POSIX: every stdio upstream is spawned `detached`, i.e. as the leader of a new session and
 * process group whose id is its pid. Its children (`sleep 300 &` in a wrapper script, a
 * server's workers) stay in that group unless they leave it on purpose, so one signal to
 * `-pid` reaches them all: SIGTERM, then SIGKILL after a grace period.
 * Windows has no process groups for this; `taskkill /PID <pid> /T /F` ends the process and
 * every descendant it started. `detached` there would open a console window, so it is off.
 */

export type Platform = NodeJS.Platform;

export type KillStep =
  /** Send `signal` to the process (`group: false`) or to its whole process group (`group: true`, i.e. to -pid). */
  | { kind: 'signal'; pid: number; group: boolean; signal: 'SIGTERM' | 'SIGKILL' }
  /** Run a command synchronously or not; failure (the tree is already gone) is fine. */
  | { kind: 'run'; command: string; args: string[] };

/** Whether stdio upstreams are spawned as process-group leaders on this platform. */
export function spawnsProcessGroup(platform: Platform): boolean {
  return platform !== 'win32';
}

/**
 * What ends the tree rooted at `pid`: `graceful` asks (SIGTERM to the group; on Windows the
 * closed stdin already asked, so nothing more), `force` ends it (SIGKILL to the group;
 * `taskkill /T /F` on Windows).
 */
export function terminationSteps(platform: Platform, pid: number, phase: 'graceful' | 'force'): KillStep[] {
  if (!Number.isInteger(pid) || pid <= 0) return [];
  if (platform === 'win32')
    return phase === 'force' ? [{ kind: 'run', command: 'taskkill', args: ['/PID', String(pid), '/T', '/F'] }] : [];
  return [
    { kind: 'signal', pid, group: spawnsProcessGroup(platform), signal: phase === 'graceful' ? 'SIGTERM' : 'SIGKILL' },
  ];
}

/** How long an upstream tree gets between the polite request and the forced end. */
export const TERMINATION_GRACE_MS = 2000;

/**
 * The watchdog: a tiny process started once per MCP Lens process, holding the read end of a
 * pipe from it. MCP Lens writes `+<pid>` when it starts an upstream and `-<pid>` when that
 * upstream's tree is gone. When the pipe closes without a clean goodbye — MCP Lens was killed
 * (`kill -9`), crashed, or exited — the watchdog ends every tree still listed, then exits. It
 * runs in its own process group, so a terminal's Ctrl+C (which MCP Lens handles cleanly) does
 * not take it down first.
 *
 * POSIX: `/bin/sh` (about a megabyte, no Node runtime), the steps of terminationSteps written
 * as `kill -s TERM -- -<pid>`, a grace period, then `kill -s KILL`. Windows: the same loop in
 * Node, ending each tree with taskkill.
 */
export function watchdogCommand(platform: Platform, nodePath: string): { command: string; args: string[] } {
  const graceSeconds = Math.ceil(TERMINATION_GRACE_MS / 1000);
  if (platform === 'win32') {
    const script = [
      "const pids=new Set();let buf='';",
      "process.stdin.setEncoding('utf8');",
      "process.stdin.on('data',(c)=>{buf+=c;let i;while((i=buf.indexOf('\\n'))>=0){const l=buf.slice(0,i).trim();buf=buf.slice(i+1);",
      "if(/^[+-]\\d+$/.test(l)){if(l[0]==='+')pids.add(l.slice(1));else pids.delete(l.slice(1));}}});",
      "process.stdin.on('end',()=>{const {spawnSync}=require('node:child_process');",
      "for(const p of pids)spawnSync('taskkill',['/PID',p,'/T','/F'],{stdio:'ignore',windowsHide:true});process.exit(0);});",
    ].join('');
    return { command: nodePath, args: ['-e', script] };
  }
  const script = [
    // Terminal signals are MCP Lens's to handle; the closed pipe is what counts here.
    "trap '' INT HUP",
    'groups=" "',
    'while IFS= read -r line; do',
    '  case "$line" in',
    '    +[0-9]*) groups="$groups${line#+} " ;;',
    '    -[0-9]*) kept=" "; for g in $groups; do [ "$g" = "${line#-}" ] || kept="$kept$g "; done; groups="$kept" ;;',
    '  esac',
    'done',
    '[ "$groups" = " " ] && exit 0',
    'for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done',
    `sleep ${graceSeconds}`,
    'for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done',
    'exit 0',
  ].join('\n');
  return { command: '/bin/sh', args: ['-c', script] };
}
