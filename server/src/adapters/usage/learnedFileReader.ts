/**
 * Reading the learned file off the gateway's thread: a worker thread (learnedFileWorker.ts) reads,
 * bounds and checks it (learnedFile.ts readLearnedFile) and hands back the examples it may believe.
 * Reading and parsing even a file of the largest size MCP Lens writes, or a hostile one, then
 * never holds up a search of any session; a worker that does not answer within READ_TIMEOUT_MS is
 * stopped and the file treated as unreadable (learning goes on in memory). A file that is not
 * there, or of at most ON_THREAD_BYTES, is read on the calling thread: starting a worker costs
 * more than reading it (bench-results.md, "Reading the learned-search file").
 */
import { lstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../core/errorMessage';
import type { LearnedExample } from '../../core/usage/learnedExamples';
import { readLearnedFile, type LearnedRead } from './learnedFile';

/** Longer than reading and checking the largest file MCP Lens writes takes on a loaded machine. */
const READ_TIMEOUT_MS = 20_000;
/** A reader needs the file's bytes and what is parsed of them (MAX_LEARNED_FILE_BYTES), no more. */
const READER_HEAP_MB = 96;
/** A few hundred examples: read and checked in a millisecond or two. */
const ON_THREAD_BYTES = 64 * 1024;
/** Examples the worker hands back per message (learnedFileWorker.ts). */
export const LEARNED_READ_SLICE = 250;

/** Reads `file` (on a worker thread unless it is small or missing). Never rejects: a failure is `refused` with the reason. */
export function readLearnedFileOffThread(file: string, now = Date.now()): Promise<LearnedRead> {
  const size = sizeOf(file);
  if (size === undefined || size <= ON_THREAD_BYTES) {
    try {
      return Promise.resolve(readLearnedFile(file, now));
    } catch (err) {
      return Promise.resolve({ refused: `cannot read it (${errorMessage(err)})` });
    }
  }
  return onWorker(file, now);
}

/** The file's size as lstat sees it (a link's own); undefined when there is none. */
function sizeOf(file: string): number | undefined {
  try {
    return lstatSync(file).size;
  } catch {
    return undefined;
  }
}

function onWorker(file: string, now: number): Promise<LearnedRead> {
  return new Promise((resolve) => {
    const { path, execArgv } = readerModule();
    let worker: Worker;
    try {
      worker = new Worker(path, {
        workerData: { file, now },
        execArgv,
        resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
        stdout: true,
        stderr: true,
      });
    } catch (err) {
      return resolve({ refused: `cannot start its reader (${errorMessage(err)})` });
    }
    let settled = false;
    const settle = (read: LearnedRead) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(read);
    };
    const timer = setTimeout(
      () => settle({ refused: `its reader did not finish within ${READ_TIMEOUT_MS / 1000} s` }),
      READ_TIMEOUT_MS,
    );
    timer.unref();
    // Slices of examples, then the read's outcome (its examples: the slices before it).
    const examples: LearnedExample[] = [];
    worker.on('message', (message: LearnedRead | { slice: LearnedExample[] }) => {
      if ('slice' in message) for (const e of message.slice) examples.push(e);
      else settle('examples' in message ? { examples } : message);
    });
    worker.once('error', (err) => settle({ refused: `its reader failed (${errorMessage(err)})` }));
    worker.once('exit', (code) => settle({ refused: `its reader stopped (exit ${code})` }));
  });
}

/** The reader's entry: the bundle beside this one, or the TypeScript source under tsx. */
function readerModule(): { path: string; execArgv: string[] } {
  // Bundled, this code is inside dist/server.js or dist/cli.js: __dirname is dist/.
  if (!__filename.endsWith('.ts')) return { path: join(__dirname, 'learnedFileWorker.js'), execArgv: [] };
  // createRequire: a bare require.resolve would make esbuild look for tsx in the bundles.
  return {
    path: join(__dirname, 'learnedFileWorker.ts'),
    execArgv: ['--require', createRequire(__filename).resolve('tsx/cjs')],
  };
}
