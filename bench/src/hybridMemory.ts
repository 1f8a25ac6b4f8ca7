/**
 * Hybrid search's memory at organisation scale: at each size, an org catalog (orgCatalog.ts)
 * indexed by the real hybrid path (HybridToolIndex over LanceDB, OllamaEmbedder over HTTP to
 * the Ollama-protocol test server running here, 768 dimensions like nomic-embed-text) in a
 * child process bundled like dist/server.js: a cold start (every tool embedded) and a warm
 * start on the store it left (nothing to embed). Each child waits until LanceDB's own vector
 * index answers, times 50 hybrid searches and reads its RSS after a full GC, and its peak.
 *
 *   node --import tsx bench/src/hybridMemory.ts [--sizes 10000,50000,100000] [--json] [--child-src DIR]
 *
 * --child-src: the `server/src` tree to bundle the child from (default this one), to measure
 * another build the same way (hybridMemoryChild.ts and forwardingStore.ts copied into its bench folder).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './benchFiles';
import type { HybridMemoryReport } from './hybridMemoryChild';
import { bundleMemoryChild, runMemoryChild } from './memoryChild';
import { orgCatalog, realTools } from './orgCatalog';

interface Row extends HybridMemoryReport {
  start: 'cold' | 'warm';
}

const REPO = repoRoot();

async function main(): Promise<void> {
  const args = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,50000,100000' },
      json: { type: 'boolean', default: false },
      'child-src': { type: 'string' },
    },
  }).values;
  const sizes = args.sizes.split(',').map(Number);
  const child = await bundleMemoryChild(
    join(resolve(args['child-src'] ?? join(REPO, 'server', 'src')), 'bench', 'hybridMemoryChild.ts'),
  );
  const fixture = (await import(pathToFileURL(join(REPO, 'test', 'fixtures', 'fakeOllama.ts')).href)) as {
    startFakeOllama(o: { models: Record<string, number> }): Promise<{ url: string; close(): Promise<void> }>;
  };
  const ollama = await fixture.startFakeOllama({ models: { 'nomic-embed-text': 768 } });
  const work = mkdtempSync(join(tmpdir(), 'mcp-lens-hybrid-memory-'));
  const rows: Row[] = [];
  try {
    for (const size of sizes) {
      const toolsFile = join(work, `tools-${size}.json`);
      writeFileSync(toolsFile, JSON.stringify(orgCatalog(realTools(), size)));
      const store = join(work, `store-${size}`);
      for (const start of ['cold', 'warm'] as const) {
        process.stderr.write(`hybrid memory: ${size} tools, ${start} start…\n`);
        rows.push({
          start,
          ...(await runMemoryChild<HybridMemoryReport>(child, [toolsFile, store, ollama.url], {
            nodeArgs: ['--expose-gc'],
            label: 'hybrid memory child',
          })),
        });
        process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      }
    }
  } finally {
    await ollama.close();
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(args.json ? `${JSON.stringify(rows, null, 2)}\n` : `${table(rows)}\n`);
}

function table(rows: readonly Row[]): string {
  return [
    'Hybrid mode (LanceDB store, Ollama-protocol test server, 768 dimensions), one child process per start, measured once LanceDB’s vector index answers:',
    '',
    '| tools | start | ready ms | index answering ms | vectors in memory | hybrid search p50 / p99 ms | RSS MB (after GC) | peak RSS MB | heap MB | array buffers MB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.tools} | ${r.start} | ${r.ready_ms} | ${r.ann_ms} | ${r.vectors_in_memory ?? '(all)'} | ${r.search_ms.p50} / ${r.search_ms.p99} | ${r.rss_mb} | ${r.peak_rss_mb} | ${r.heap_used_mb} | ${r.array_buffers_mb} |`,
    ),
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`hybridMemory: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
