/**
 * Sidecar memory and start-up at catalog scale: the real index path (HybridToolIndex over
 * LanceDB, OllamaEmbedder over HTTP) on the toolbench catalog (2,220 tools), each scenario in
 * a child process bundled like dist/server.js, so neither tsx, the harness nor the fake
 * Ollama (which runs here, in the parent, answering 768-dim vectors like nomic-embed-text)
 * counts toward the figures.
 *
 *   node --import tsx bench/src/sidecarMemory.ts [--tools FILE] [--json]   (npm run bench:memory)
 *
 * Scenarios: a bare node process and LanceDB's load alone (to attribute memory), keyword
 * only, cold start (every tool embedded), warm start (nothing to embed), Ollama unreachable
 * on an empty store and on a filled one, and a second process opening the store read-only
 * while another process holds its lock.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetDir, repoRoot } from './benchFiles';
import { bundleMemoryChild, runMemoryChild } from './memoryChild';
import type { ChildReport } from './sidecarMemoryChild';

interface Row extends ChildReport {
  /** Document texts the fake Ollama embedded during the scenario (the catalog's tools). */
  embeddings: number;
  /** Query texts it embedded (the scenario's searches). */
  query_embeddings: number;
}

interface FakeOllamaLike {
  url: string;
  embedInputs: string[];
  resetCounters(): void;
  close(): Promise<void>;
}

const REPO = repoRoot();
const DEFAULT_TOOLS = join(datasetDir('toolbench'), 'tools.json');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tools: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const toolsFile = resolve(values.tools ?? DEFAULT_TOOLS);
  if (!existsSync(toolsFile)) throw new Error(`no tools file at ${toolsFile} (give --tools FILE)`);
  const child = await bundleMemoryChild(join(__dirname, 'sidecarMemoryChild.ts'));
  // The fake Ollama is a test fixture: loaded by path so no bundle ever includes it.
  const fixture = join(REPO, 'test', 'fixtures', 'fakeOllama.ts');
  const { startFakeOllama } = (await import(fixture)) as {
    startFakeOllama(o: { models: Record<string, number> }): Promise<FakeOllamaLike>;
  };
  const ollama = await startFakeOllama({ models: { 'nomic-embed-text': 768 } });
  const unreachable = await closedPortUrl();
  const work = mkdtempSync(join(tmpdir(), 'mcp-lens-memory-'));
  const rows: Row[] = [];
  try {
    const store = join(work, 'store');
    const run = async (scenario: string, label: string, dir: string, url: string, env: Record<string, string> = {}) => {
      ollama.resetCounters();
      const r = await runMemoryChild<ChildReport>(child, [scenario, toolsFile, dir, url], {
        env,
        label: `child ${scenario}`,
      });
      const documents = ollama.embedInputs.filter((t) => t.startsWith('search_document: ')).length;
      rows.push({
        ...r,
        scenario: label,
        embeddings: documents,
        query_embeddings: ollama.embedInputs.length - documents,
      });
    };
    await run('baseline', 'node baseline', work, unreachable);
    await run('lance-load', 'LanceDB load+connect only', join(work, 'lance-only'), unreachable);
    await run('keyword', 'keyword only (MemoryToolIndex)', work, unreachable);
    await run('hybrid', 'cold start', store, ollama.url);
    await run('hybrid', 'warm start', store, ollama.url);
    await run('hybrid', 'Ollama unreachable, empty store', join(work, 'empty'), unreachable);
    await run('hybrid', 'Ollama unreachable, filled store', store, unreachable);
    await withForeignLock(store, () => run('hybrid', 'second process (store locked elsewhere)', store, ollama.url));
    // glibc's per-thread malloc arenas are set before a process starts, so only the launcher
    // (the editor, a shell) can choose this; measured here to document it.
    await run('hybrid', 'cold start, MALLOC_ARENA_MAX=2', join(work, 'arena'), ollama.url, { MALLOC_ARENA_MAX: '2' });
  } finally {
    await ollama.close();
    rmSync(work, { recursive: true, force: true });
  }
  if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else process.stdout.write(`${table(rows, toolsFile)}\n`);
}

/**
 * The store's lock as a live editor sidecar would hold it: the lock file names this (live)
 * process, so the child must open read-only. Removed afterwards.
 */
async function withForeignLock(storeDir: string, fn: () => Promise<void>): Promise<void> {
  const lock = join(storeDir, 'toolStore.lock');
  writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
  try {
    await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A URL on a port nothing listens on (bound, then released), for "Ollama unreachable". */
function closedPortUrl(): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(`http://127.0.0.1:${port}`));
    });
  });
}

function table(rows: Row[], toolsFile: string): string {
  const head =
    '| scenario | ready ms | tools | embedded | tools embedded now | queries embedded | LanceDB loaded | maxRSS MB | VmHWM MB | RSS MB | heap used MB | external MB | threads |';
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.ready_ms} | ${r.tools} | ${r.embedded} | ${r.embeddings} | ${r.query_embeddings} | ${r.lance_loaded ? 'yes' : 'no'} | ${r.max_rss_mb} | ${r.vm_hwm_mb} | ${r.rss_mb} | ${r.heap_used_mb} | ${r.external_mb} | ${r.threads} |`,
  );
  const steps = rows.map(
    (r) =>
      `- ${r.scenario}: ${Object.entries(r.steps)
        .map(([k, v]) => `${k} ${v}${r.step_ms[k] === undefined ? '' : ` (${r.step_ms[k]} ms)`}`)
        .join(' → ')} MB RSS`,
  );
  return [
    `sidecar memory: ${toolsFile}, node ${process.version}, one child process per row`,
    '',
    head,
    `|${'---|'.repeat(13)}`,
    ...lines,
    '',
    'RSS by step (ms since the index was opened):',
    ...steps,
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`sidecar memory: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
