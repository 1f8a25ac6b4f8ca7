/**
 * Reading the learned-search file (adapters/usage/learnedFileReader.ts): how long a read takes
 * on its worker thread, and how long the gateway's own thread is held meanwhile (the longest gap
 * between 1 ms ticks of a timer on it), for files of the sizes and shapes an attacker or the
 * writer leaves; beside it, the same read done on the calling thread (what a worker spares it).
 *
 *   node --import tsx bench/src/learnedFileRead.ts [--write bench-results.md]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ensureLearnedFolder,
  learnedFilePath,
  MAX_LEARNED_FILE_BYTES,
  readLearnedFile,
  writeLearnedFile,
} from '../../server/src/adapters/usage/learnedFile';
import { readLearnedFileOffThread } from '../../server/src/adapters/usage/learnedFileReader';
import type { LearnedExample } from '../../server/src/core/usage/learnedExamples';
import { writeSection } from './markdownSection';

const RUNS = 5;

/** An example of the size a typical request makes (six words, a 40-character key), or the longest. */
function example(i: number, longest: boolean): LearnedExample {
  const words = Array.from({ length: longest ? 24 : 6 }, (_, j) =>
    longest ? `${'w'.repeat(36)}${String(j).padStart(2, '0')}${i}`.slice(0, 40) : `word${j}x${i % 500}`,
  );
  return {
    terms: words,
    words,
    key: `server/${longest ? 't'.repeat(200) : 'a_tool_with_a_name_of_forty_chars'}${i}`,
    server: 'server',
    fingerprint: '0123456789abcdef',
    weight: 1,
    count: 1,
    at: 1_700_000_000_000 + i,
    by: '0123456789abcdef',
  };
}

const FILES: [string, (file: string) => void][] = [
  [
    '200 typical examples (at most 64 KB: read on the calling thread)',
    (f) =>
      writeLearnedFile(
        f,
        Array.from({ length: 200 }, (_, i) => example(i, false)),
      ),
  ],
  [
    '4,000 typical examples',
    (f) =>
      writeLearnedFile(
        f,
        Array.from({ length: 4000 }, (_, i) => example(i, false)),
      ),
  ],
  [
    'the largest MCP Lens writes (4,000 longest examples, cut to 4 MB)',
    (f) =>
      writeLearnedFile(
        f,
        Array.from({ length: 4000 }, (_, i) => example(i, true)),
      ),
  ],
  [
    '15 MB of valid JSON (refused by size)',
    (f) => {
      const one = JSON.stringify(example(0, false));
      writeFileSync(
        f,
        `{"format":2,"examples":[${Array(Math.ceil(15e6 / one.length))
          .fill(one)
          .join(',')}]}`,
        {
          mode: 0o600,
        },
      );
    },
  ],
  [
    '3 MB of nested brackets (refused by depth)',
    (f) => writeFileSync(f, `{"format":2,"examples":${'['.repeat(1.5e6)}${']'.repeat(1.5e6)}}`, { mode: 0o600 }),
  ],
];

/** The longest the calling thread went without running a 1 ms timer while `work` ran. */
async function held<T>(work: () => Promise<T>): Promise<{ ms: number; held: number; result: T }> {
  let last = performance.now();
  let most = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    most = Math.max(most, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  try {
    const result = await work();
    return { ms: performance.now() - started, held: Math.max(most, performance.now() - last), result };
  } finally {
    clearInterval(tick);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(argv: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-learned-bench-'));
  const file = learnedFilePath(dir);
  ensureLearnedFolder(file);
  const rows: string[] = [];
  // What the timer shows with nothing to read: the machine's own noise.
  const idle = await held(() => new Promise((r) => setTimeout(r, 300)));
  rows.push(`| nothing (300 ms idle: the timer's own noise) | – | – | ${idle.held.toFixed(0)} | – |`);
  try {
    for (const [what, write] of FILES) {
      write(file);
      const off: { ms: number; held: number }[] = [];
      const on: number[] = [];
      let outcome = '';
      for (let i = 0; i < RUNS; i++) {
        const r = await held(() => readLearnedFileOffThread(file));
        off.push(r);
        outcome =
          'examples' in r.result ? `${r.result.examples.length} examples` : 'bad' in r.result ? 'set aside' : 'refused';
        const t = performance.now();
        readLearnedFile(file);
        on.push(performance.now() - t);
      }
      const row = `| ${what} | ${outcome} | ${median(off.map((r) => r.ms)).toFixed(0)} | ${median(off.map((r) => r.held)).toFixed(0)} | ${median(on).toFixed(0)} |`;
      rows.push(row);
      process.stdout.write(`${row}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const md = [
    '# Reading the learned-search file',
    '',
    'Command: `node --import tsx bench/src/learnedFileRead.ts --write bench-results.md` (run from source: the worker loads under tsx, which a bundle does not pay)',
    '',
    `Load ${loadavg()[0]!.toFixed(0)} on ${cpus().length} cores when run. Each file read ${RUNS} times; medians. "worker": the read on its worker thread (adapters/usage/learnedFileReader.ts), start of the thread included; "thread held": the longest the calling thread (the gateway's) went without running a 1 ms timer meanwhile; "on the thread": the same read and check done on the calling thread, for comparison. The bound is ${MAX_LEARNED_FILE_BYTES / 2 ** 20} MB.`,
    '',
    '| file | outcome | worker ms | thread held ms | on the thread ms |',
    '|---|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
  const w = argv.indexOf('--write');
  if (w >= 0) writeSection(resolve(argv[w + 1] ?? 'bench-results.md'), 'learned-file', md);
}

void main(process.argv.slice(2));
