/**
 * An upstream that forks (a shell script starting `sleep 300 &`, then the server) left its
 * grandchildren running after MCP Lens stopped: stdio upstreams got no process group and only
 * the direct child was killed. Every stdio upstream now leads its own process group, and its
 * whole group is ended (SIGTERM, then SIGKILL after a grace period) on all three ways MCP Lens
 * stops: a clean stop (SIGTERM to `serve --http`), a closed stdin (`serve` over stdio, the
 * client went away) and `kill -9` of MCP Lens itself (the watchdog ends the groups).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { isProcessAlive } from '../../server/src/adapters/processProbe';
import {
  EVERYTHING,
  cliEnv,
  hostileWorkspace,
  mcpJson,
  startCli,
  type HostileWorkspace,
  type RunningCli,
  killStarted,
} from './hostileWorkspace';

const WRAPPER = `#!/bin/sh
# Starts a helper that outlives nothing it should, then the real server.
sleep 300 &
echo "$$ $!" > "$1"
"$2" "$3" stdio
`;

const worlds: HostileWorkspace[] = [];
const pids: number[] = [];
after(() => {
  killStarted();
  for (const pid of pids) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  worlds.forEach((w) => w.close());
});

/** A workspace whose one server is the forking wrapper around server-everything. */
function forkingWorkspace(): { ws: HostileWorkspace; pidFile: string } {
  const ws = hostileWorkspace({ 'wrapper.sh': { text: WRAPPER, mode: 0o755 } });
  worlds.push(ws);
  const pidFile = ws.path('pids.txt');
  writeFileSync(
    ws.path('mcp.json'),
    mcpJson({ forking: { command: ws.path('wrapper.sh'), args: [pidFile, EVERYTHING.command, EVERYTHING.args[0]!] } }),
  );
  return { ws, pidFile };
}

/** Waits (on the condition, with a deadline) until `check` holds. */
async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Gone, or a zombie waiting for init to reap it. */
function gone(pid: number): boolean {
  if (!isProcessAlive(pid)) return true;
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function upstreamPids(pidFile: string): Promise<number[]> {
  await until(
    'the wrapper to start its helper',
    () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim().split(/\s+/).length === 2,
  );
  const found = readFileSync(pidFile, 'utf8').trim().split(/\s+/).map(Number);
  pids.push(...found);
  for (const pid of found) assert.ok(isProcessAlive(pid), `upstream process ${pid} runs`);
  return found;
}

async function allGone(found: number[], how: string): Promise<void> {
  await until(`every upstream process to end after ${how}`, () => found.every(gone), 20_000).catch(() => undefined);
  const left = found.filter((p) => !gone(p));
  assert.deepEqual(
    left,
    [],
    `still running after ${how}: ${left.map((p) => `${p} (${readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ')})`).join(', ')}`,
  );
}

function serve(ws: HostileWorkspace, http: boolean): RunningCli {
  return startCli(
    ['serve', ...(http ? ['--http'] : []), '--workspace', ws.dir, '--config', ws.path('mcp.json')],
    cliEnv(ws),
    http ? 'ignore' : 'pipe',
  );
}

test('a clean stop (SIGTERM) ends the upstream and everything it started', async () => {
  const { ws, pidFile } = forkingWorkspace();
  const s = serve(ws, true);
  const found = await upstreamPids(pidFile);
  await s.waitFor(/Press Ctrl\+C to stop/);
  await s.stop('SIGTERM');
  await allGone(found, 'a clean stop');
});

test('a closed stdin (the MCP client went away) ends them too', async () => {
  const { ws, pidFile } = forkingWorkspace();
  const s = serve(ws, false);
  const found = await upstreamPids(pidFile);
  s.child.stdin!.end();
  await s.stop(undefined);
  await allGone(found, 'stdin closed');
});

test('kill -9 of MCP Lens ends them through the watchdog', async () => {
  const { ws, pidFile } = forkingWorkspace();
  const s = serve(ws, true);
  const found = await upstreamPids(pidFile);
  await s.waitFor(/Press Ctrl\+C to stop/);
  await s.stop('SIGKILL');
  await allGone(found, 'kill -9');
});
