// Process-tree termination per platform (core/processTree.ts), with the platform passed in:
// POSIX process groups (SIGTERM, then SIGKILL, to -pid), Windows `taskkill /T /F`, and the
// watchdog each platform runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { spawnsProcessGroup, terminationSteps, watchdogCommand } from '../../server/src/core/processTree';

test('POSIX: upstreams lead their own process group, ended by signals to the group', () => {
  for (const platform of ['linux', 'darwin', 'freebsd'] as const) {
    assert.equal(spawnsProcessGroup(platform), true, platform);
    assert.deepEqual(terminationSteps(platform, 4242, 'graceful'), [
      { kind: 'signal', pid: 4242, group: true, signal: 'SIGTERM' },
    ]);
    assert.deepEqual(terminationSteps(platform, 4242, 'force'), [
      { kind: 'signal', pid: 4242, group: true, signal: 'SIGKILL' },
    ]);
  }
});

test('Windows: no detached spawn (it would open a console); the tree ends with taskkill /T /F', () => {
  assert.equal(spawnsProcessGroup('win32'), false);
  assert.deepEqual(terminationSteps('win32', 4242, 'graceful'), [], 'the closed stdin is the polite request');
  assert.deepEqual(terminationSteps('win32', 4242, 'force'), [
    { kind: 'run', command: 'taskkill', args: ['/PID', '4242', '/T', '/F'] },
  ]);
});

test('no step ever targets pid 0, a negative or a fractional pid (kill(0) or kill(-1) would hit everything)', () => {
  for (const platform of ['linux', 'win32'] as const)
    for (const pid of [0, -1, 1.5, Number.NaN])
      assert.deepEqual(terminationSteps(platform, pid, 'force'), [], `${platform} ${pid}`);
});

test('the watchdog: sh on POSIX (parses), Node with taskkill on Windows', () => {
  const posix = watchdogCommand('linux', '/usr/bin/node');
  assert.equal(posix.command, '/bin/sh');
  const syntax = spawnSync('/bin/sh', ['-n', '-c', posix.args[1]!]);
  assert.equal(syntax.status, 0, syntax.stderr.toString());
  assert.match(posix.args[1]!, /kill -s TERM -- "-\$g"/);
  assert.match(posix.args[1]!, /kill -s KILL -- "-\$g"/);
  const win = watchdogCommand('win32', 'C:\\node.exe');
  assert.equal(win.command, 'C:\\node.exe');
  assert.match(win.args[1]!, /taskkill',\['\/PID',p,'\/T','\/F'\]/);
  assert.doesNotThrow(
    () => new Function(win.args[1]!.replace(/require\(/g, '(()=>({}))(')),
    'the Windows script is valid JavaScript',
  );
});

test('the POSIX watchdog forgets a tree it was told is gone and ends the rest when its pipe closes', () => {
  // Run the real script with `kill` stubbed, to see which groups it would end.
  const { args } = watchdogCommand('linux', process.execPath);
  const script = `kill() { echo "kill $*"; }\nsleep() { :; }\n${args[1]!}`;
  const r = spawnSync('/bin/sh', ['-c', script], { input: '+100\n+200\n-100\n+300\n', encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    'kill -s TERM -- -200',
    'kill -s TERM -- -300',
    'kill -s KILL -- -200',
    'kill -s KILL -- -300',
  ]);
  const none = spawnSync('/bin/sh', ['-c', script], { input: '+100\n-100\n', encoding: 'utf8' });
  assert.equal(none.stdout, '', 'nothing left: nothing killed');
});
