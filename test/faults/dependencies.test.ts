/**
 * Dependencies failing under a running sidecar core (LensApp with the real LanceDB index and
 * the fake Ollama): Ollama down, slow (10 s per call) or answering 500s; the LanceDB folder
 * deleted or corrupted while running, read-only, or on a full disk (tiny tmpfs mounts: the
 * tests run as root, which ignores chmod). Search must answer (keyword mode) and calls work.
 * Index-level behaviour of the same faults: test/server/index.test.ts, toolStore.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { EVERYTHING, until } from '../fixtures/gatewayLens';
import { captureLog, startIndexedLens, type LogLines } from './faultWorld';
import type { LensWorld } from '../fixtures/gatewayLens';

async function sumFound(world: LensWorld): Promise<string> {
  const r = await world.lens.search({ query: 'add two numbers' });
  const top = r.hits.slice(0, 3).map((h) => h.originalName);
  assert.ok(top.includes('get-sum'), `get-sum not in the top 3 (${r.mode.label}): ${top.join(', ')}`);
  const sum = world.lens.tools().find((t) => t.originalName === 'get-sum')!;
  const called = await world.lens.callTool(sum.name, { a: 40, b: 2 });
  assert.ok(!called.isError);
  return r.mode.label;
}

function tryMount(dir: string, sizeKb: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes a bind mount read-only. The kernel refuses (EBUSY, "mount point is busy") while a file
 * is open for writing through the new mount, e.g. the index's snapshot written in the moment
 * between the bind and this remount: such a write ends, so this tries again until it has.
 */
async function remountReadOnly(dir: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      execFileSync('mount', ['-o', 'remount,bind,ro', dir], { stdio: 'pipe' });
      return;
    } catch (err) {
      const why = `${(err as Error).message} ${String((err as { stderr?: Buffer }).stderr ?? '')}`;
      if (!/busy/i.test(why) || Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  } catch {
    /* not mounted */
  }
}

describe('dependencies failing', () => {
  let ollama: FakeOllama;
  let root: string;

  before(async () => {
    ollama = await startFakeOllama();
    root = mkdtempSync(join(tmpdir(), 'mcp-lens-deps-'));
  });
  after(async () => {
    await ollama?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('Ollama down, then 10 s per call, then 500s: search answers in keyword mode and calls work', async () => {
    const log = captureLog();
    const world = await startIndexedLens(
      { everything: EVERYTHING },
      { storageDir: join(root, 'ollama'), ollamaHost: ollama.url, log: log.logger },
    );
    try {
      await until(
        'every tool embedded',
        () => world.lens.indexStatus().toolsEmbedded === world.lens.indexStatus().toolsTotal,
        20_000,
      );
      assert.match(await sumFound(world), /hybrid|meaning/i);
      await ollama.down();
      assert.match(await sumFound(world), /keyword/i);
      await ollama.up();
      ollama.slowMs = 10_000;
      assert.match(await sumFound(world), /keyword/i, 'a 10 s embedder does not hold search up');
      ollama.slowMs = 0;
      ollama.failEmbeds(1000, 500);
      assert.match(await sumFound(world), /keyword/i);
      assert.ok(
        log.lines.some((l) => /tool index: keyword only: Ollama unreachable/.test(l)),
        'the outage is logged',
      );
    } finally {
      ollama.failEmbeds(0);
      ollama.slowMs = 0;
      await world.close();
    }
  });

  it('the LanceDB folder deleted, then corrupted, while running: search and calls go on; a restart rebuilds', async () => {
    const storageDir = join(root, 'damage');
    const log = captureLog();
    let world = await startIndexedLens(
      { everything: EVERYTHING },
      { storageDir, ollamaHost: ollama.url, log: log.logger },
    );
    try {
      await until(
        'embedded',
        () => world.lens.indexStatus().toolsEmbedded === world.lens.indexStatus().toolsTotal,
        20_000,
      );
      removeWhileWritten(join(storageDir, 'index'));
      await world.lens.reindex();
      await sumFound(world);
      for (const f of walk(join(storageDir, 'index'))) writeFileSync(f, 'garbage, not lance');
      await world.lens.reindex();
      await sumFound(world);
    } finally {
      await world.close();
    }
    for (const f of walk(join(storageDir, 'index'))) writeFileSync(f, 'garbage, not lance');
    world = await startIndexedLens({ everything: EVERYTHING }, { storageDir, ollamaHost: ollama.url, log: log.logger });
    try {
      await until(
        're-embedded after the rebuild',
        () => world.lens.indexStatus().toolsEmbedded === world.lens.indexStatus().toolsTotal,
        20_000,
      );
      assert.match(await sumFound(world), /hybrid|meaning/i);
    } finally {
      await world.close();
    }
  });

  it('a storage folder made read-only while running, and at start: search and calls go on', async (t) => {
    const storageDir = join(root, 'ro');
    mkdirSync(storageDir);
    if (!tryMount(storageDir, 16 * 1024))
      return t.skip(
        'cannot mount a tmpfs here (needs root); a read-only folder cannot be simulated with chmod as root',
      );
    let world: LensWorld | undefined;
    try {
      world = await startIndexedLens(
        { everything: EVERYTHING },
        { storageDir, ollamaHost: ollama.url, log: captureLog().logger },
      );
      await until(
        'embedded',
        () => world!.lens.indexStatus().toolsEmbedded === world!.lens.indexStatus().toolsTotal,
        20_000,
      );
      // A read-only bind mount over the folder: open files stay writable, new writes fail (EROFS).
      execFileSync('mount', ['--bind', storageDir, storageDir]);
      await remountReadOnly(storageDir);
      await world.lens.reindex();
      await sumFound(world);
      await world.close();
      world = undefined;
      const log = captureLog();
      world = await startIndexedLens(
        { everything: EVERYTHING },
        { storageDir, ollamaHost: ollama.url, log: log.logger },
      );
      await sumFound(world);
      t.diagnostic(`index at start on a read-only folder: ${world.lens.indexStatus().mode.label}`);
    } finally {
      await world?.close();
      unmount(storageDir);
      unmount(storageDir);
    }
  });

  it('a full disk under the tool store, at start and while running: search and calls go on, the reason is shown', async (t) => {
    const storageDir = join(root, 'full');
    mkdirSync(storageDir);
    if (!tryMount(storageDir, 2048)) return t.skip('cannot mount a tmpfs here (needs root)');
    const log: LogLines = captureLog();
    let world: LensWorld | undefined;
    try {
      world = await startIndexedLens(
        { everything: EVERYTHING },
        { storageDir, ollamaHost: ollama.url, log: log.logger },
      );
      await until(
        'embedded',
        () => world!.lens.indexStatus().toolsEmbedded === world!.lens.indexStatus().toolsTotal,
        20_000,
      );
      // Lose the stored vectors, fill the disk, and make the index write them again.
      removeWhileWritten(join(storageDir, 'index'));
      fillDisk(storageDir);
      await world.lens.reindex();
      await sumFound(world);
      // Node says ENOSPC, LanceDB (Rust) "No space left on device (os error 28)": whichever write fails first.
      await until(
        'the failed write is logged',
        () => log.lines.some((l) => /^(warn|error): .*(ENOSPC|no space left|os error 28)/i.test(l)),
        20_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; the log said:\n${log.lines.slice(-15).join('\n')}`);
      });
      await world.close();
      world = undefined;
      fillDisk(storageDir); // closing freed the lock file's page
      // Starting on a full disk: it starts (it used to fail with ENOSPC) and searches keyword-only.
      world = await startIndexedLens(
        { everything: EVERYTHING },
        { storageDir: join(storageDir, 'fresh'), ollamaHost: ollama.url, log: log.logger },
      );
      t.diagnostic(`index at start on a full disk: ${world.lens.indexStatus().mode.label}`);
      assert.match(await sumFound(world), /keyword/);
    } finally {
      await world?.close();
      unmount(storageDir);
    }
  });
});

/** Deletes a folder the index may be writing into at that moment (rm races new files). */
function removeWhileWritten(dir: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || attempt > 100) throw err;
    }
  }
}

/** Writes a file until the filesystem is full. */
function fillDisk(dir: string): void {
  try {
    writeFileSync(join(dir, `filler-${Date.now()}`), Buffer.alloc(64 * 1024 * 1024));
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  }
}

function walk(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(walk(p));
    else if (!n.endsWith('.lock') && n !== 'lock') out.push(p);
  }
  return out;
}
