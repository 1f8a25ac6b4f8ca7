/**
 * The measured side of `hybridMemory.ts`: one hybrid index (HybridToolIndex over LanceDB,
 * OllamaEmbedder over HTTP) per process, on an organisation-sized catalog, so RSS is the
 * index's own. It syncs the catalog, waits until every tool has its vector, searches until
 * LanceDB's own vector index answers one, then times hybrid searches and reads its memory.
 * Prints one JSON line on stdout and nothing else.
 *
 *   node --expose-gc child.cjs TOOLS_JSON STORE_DIR OLLAMA_URL
 */
import { readFileSync } from 'node:fs';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import type { ToolStore } from '../../server/src/adapters/store/toolStore';
import { silentLogger } from '../../server/src/core/logger';
import { HybridToolIndex } from '../../server/src/index/hybridIndex';
import { catalogToolsOf } from './dataset';
import { forwardingStore } from './forwardingStore';
import { latency, type LatencyFigures } from './scaleKeyword';

/** What the parent reads back. Memory figures are MB. */
export interface HybridMemoryReport {
  tools: number;
  embedded: number;
  mode: string;
  /** From opening the index to every tool embedded. */
  ready_ms: number;
  /** From opening the index to the first search LanceDB's index answered. */
  ann_ms: number;
  /** Vectors held for the in-memory scan (undefined: a build that does not say). */
  vectors_in_memory: number | undefined;
  search_ms: LatencyFigures;
  /** VmRSS after a full GC, once LanceDB's index answers. */
  rss_mb: number;
  /** VmHWM: the process's peak RSS. */
  peak_rss_mb: number;
  heap_used_mb: number;
  array_buffers_mb: number;
}

const QUERIES = [
  'track a package delivery',
  'weather forecast for a city',
  'translate text to french',
  'send an email',
  'stock price of a company',
];
const TIMED = 50;

async function main(): Promise<void> {
  const [toolsFile, storeDir, ollamaUrl] = process.argv.slice(2);
  const tools = catalogToolsOf(JSON.parse(readFileSync(toolsFile!, 'utf8')) as Parameters<typeof catalogToolsOf>[0]);
  const start = performance.now();
  let annAnswers = 0;
  const openStore = async (): Promise<ToolStore> => {
    const real = await LanceToolStore.open({ dir: storeDir!, log: silentLogger });
    // The real store, counting the searches its vector index answered.
    return forwardingStore(real, {
      nearest: async (vector, limit, server) => {
        const hits = await real.nearest(vector, limit, server);
        if (hits) annAnswers++;
        return hits;
      },
    });
  };
  const embedder = new OllamaEmbedder({ host: ollamaUrl!, model: 'nomic-embed-text', retry: { attempts: 1 } });
  const index = await HybridToolIndex.open({ openStore, embedder, log: silentLogger, queryTimeoutMs: 30_000 });
  await index.sync(tools);
  await index.whenIdle();
  const readyMs = performance.now() - start;
  for (let i = 0; annAnswers === 0; i++) {
    if (performance.now() - start > 900_000) throw new Error('LanceDB’s vector index never answered');
    await index.search(QUERIES[i % QUERIES.length]!, { limit: 10 });
  }
  const annMs = performance.now() - start;
  const times: number[] = [];
  for (let i = 0; i < TIMED; i++) {
    const t = performance.now();
    await index.search(`${QUERIES[i % QUERIES.length]!} ${i}`, { limit: 10 });
    times.push(performance.now() - t);
  }
  const status = index.status();
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  const inMemory = (index as { vectorsInMemory?: () => number }).vectorsInMemory?.();
  const report: HybridMemoryReport = {
    tools: tools.length,
    embedded: status.toolsEmbedded,
    mode: status.mode.label,
    ready_ms: Math.round(readyMs),
    ann_ms: Math.round(annMs),
    vectors_in_memory: inMemory,
    search_ms: latency(times),
    rss_mb: mb(mem.rss),
    peak_rss_mb: mb(procStatusKb('VmHWM') * 1024),
    heap_used_mb: mb(mem.heapUsed),
    array_buffers_mb: mb(mem.arrayBuffers),
  };
  await index.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function procStatusKb(field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : 0;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`hybrid memory child: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
