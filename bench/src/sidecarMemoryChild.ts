/**
 * The measured side of `sidecarMemory.ts`: one scenario per process, so peak RSS is the
 * index's own and not the harness's or the fake Ollama's. The parent bundles this file the
 * way esbuild.mjs bundles the sidecar (LanceDB external) and runs it with plain node.
 * Prints one JSON line on stdout and nothing else.
 *
 *   node child.cjs SCENARIO TOOLS_JSON STORE_DIR OLLAMA_URL
 * SCENARIO: baseline | keyword | lance-load | hybrid | readonly
 */
import { readFileSync } from 'node:fs';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { silentLogger } from '../../server/src/core/logger';
import type { ToolIndex } from '../../server/src/core/search/types';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import { HybridToolIndex } from '../../server/src/index/hybridIndex';
import { MemoryToolIndex } from '../../server/src/index/memoryIndex';
import { catalogToolsOf } from './dataset';

/** What the parent reads back. Memory figures are MB. */
export interface ChildReport {
  scenario: string;
  /** From opening the index to answering searches in its final mode. */
  ready_ms: number;
  tools: number;
  embedded: number;
  mode: string;
  lance_loaded: boolean;
  max_rss_mb: number;
  vm_hwm_mb: number;
  rss_mb: number;
  heap_used_mb: number;
  external_mb: number;
  array_buffers_mb: number;
  threads: number;
  /** RSS (MB) at each step, to see which step costs what. */
  steps: Record<string, number>;
  /** Milliseconds from opening the index to the end of each step. */
  step_ms: Record<string, number>;
}

const QUERIES = [
  'track a package delivery',
  'weather forecast for a city',
  'translate text to french',
  'send an email',
  'stock price of a company',
];

async function main(): Promise<void> {
  const [scenario, toolsFile, storeDir, ollamaUrl] = process.argv.slice(2);
  const steps: Record<string, number> = { start: rssMb() };
  if (scenario === 'baseline') return print(report(scenario, 0, 0, 0, 'none', steps));
  if (scenario === 'lance-load') {
    const start = performance.now();
    const lancedb = await import('@lancedb/lancedb');
    steps.imported = rssMb();
    const db = await lancedb.connect(storeDir);
    await db.tableNames();
    steps.connected = rssMb();
    return print(report(scenario, performance.now() - start, 0, 0, 'none', steps));
  }
  const tools = catalogToolsOf(JSON.parse(readFileSync(toolsFile, 'utf8')) as Parameters<typeof catalogToolsOf>[0]);
  steps.catalog = rssMb();
  const start = performance.now();
  const stepMs: Record<string, number> = {};
  const step = (name: string) => {
    steps[name] = rssMb();
    stepMs[name] = Math.round(performance.now() - start);
  };
  const index = await openIndex(scenario, storeDir, ollamaUrl);
  step('opened');
  await index.sync(tools);
  step('synced');
  await ready(index, tools.length);
  const readyMs = performance.now() - start;
  step('ready');
  for (const q of QUERIES) await index.search(q, { limit: 10 });
  step('searched');
  const s = index.status();
  await index.close();
  print({ ...report(scenario, readyMs, tools.length, s.toolsEmbedded, s.mode.label, steps), step_ms: stepMs });
}

async function openIndex(scenario: string, storeDir: string, ollamaUrl: string): Promise<ToolIndex> {
  if (scenario === 'keyword') return new MemoryToolIndex('keyword only');
  const embedder = new OllamaEmbedder({ host: ollamaUrl, model: 'nomic-embed-text', retry: { attempts: 1 } });
  const openStore = () => LanceToolStore.open({ dir: storeDir, log: silentLogger, readOnly: scenario === 'readonly' });
  return HybridToolIndex.open({ openStore, embedder, log: silentLogger, backoff: { initialDelayMs: 60_000 } });
}

/** Every tool embedded, or — when the embedder is away — keyword search labelled as such. */
function ready(index: ToolIndex, total: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // Nothing left to run and no change event said ready: say so, instead of exiting 0 with no report.
    const quiet = () =>
      reject(
        new Error(
          `the index went quiet without announcing it was ready; last status ${JSON.stringify(index.status())}`,
        ),
      );
    const check = () => {
      const s = index.status();
      const embedded = s.toolsTotal === total && s.toolsEmbedded === total && s.state === 'ready';
      const keywordFinal = s.embedder?.kind === 'none' || (s.embedder?.reachable === false && s.error !== undefined);
      if (embedded || keywordFinal) {
        sub.dispose();
        process.off('beforeExit', quiet);
        resolve();
      }
    };
    const sub = index.onDidChange(check);
    process.on('beforeExit', quiet);
    check();
  });
}

function report(
  scenario: string,
  readyMs: number,
  tools: number,
  embedded: number,
  mode: string,
  steps: Record<string, number>,
  stepMs: Record<string, number> = {},
): ChildReport {
  const mem = process.memoryUsage();
  const status = procStatus();
  return {
    scenario,
    ready_ms: Math.round(readyMs),
    tools,
    embedded,
    mode,
    lance_loaded: lanceLoaded(),
    max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    vm_hwm_mb: mb((status.VmHWM ?? 0) * 1024),
    rss_mb: mb(mem.rss),
    heap_used_mb: mb(mem.heapUsed),
    external_mb: mb(mem.external),
    array_buffers_mb: mb(mem.arrayBuffers),
    threads: status.Threads ?? 0,
    steps,
    step_ms: stepMs,
  };
}

/** Whether LanceDB's native library is mapped into this process (Linux), else whether its JS was required. */
function lanceLoaded(): boolean {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('lancedb');
  } catch {
    return Object.keys(require.cache).some((k) => k.includes('@lancedb'));
  }
}

/** /proc/self/status numbers (kB for memory lines). */
function procStatus(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(\w+):\s+(\d+)/.exec(line);
      if (m) out[m[1]] = Number(m[2]);
    }
  } catch {
    // Not Linux: VmHWM and Threads stay 0.
  }
  return out;
}

function rssMb(): number {
  return mb(process.memoryUsage.rss());
}

function mb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

function print(r: ChildReport): void {
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`sidecar memory child: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
