// `mcp-lens bench --mode vector|hybrid` end to end: the CLI (run through tsx) against a real
// HTTP server speaking Ollama's protocol, on a small dataset in the shared format. This proves
// the plumbing (probe → embed the catalog → embed each query → report), not search quality.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { runBenchCli } from '../fixtures/benchCli';

const TOOLS = [
  {
    server: 'files',
    name: 'read_file',
    description: 'Read the complete contents of a file from disk',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    server: 'files',
    name: 'write_file',
    description: 'Create a new file or overwrite an existing file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
  },
  {
    server: 'github',
    name: 'create_issue',
    description: 'Open a new issue in a GitHub repository',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' } } },
  },
  { server: 'mail', name: 'send_email', description: 'Send an email message to recipients' },
  {
    server: 'weather',
    name: 'get_forecast',
    description: 'Weather forecast for a city for the next days',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  },
  { server: 'calendar', name: 'create_event', description: 'Schedule a calendar event with attendees' },
];
const QUERIES = [
  { id: 'q1', query: 'what is the weather forecast in Paris', gold: ['weather/get_forecast'] },
  { id: 'q2', query: 'send an email message to my team', gold: ['mail/send_email'] },
  {
    id: 'q3',
    query: 'read the contents of a file',
    gold: ['files/read_file'],
    gold_alternatives: { 'files/read_file': ['files/write_file'] },
  },
  { id: 'q4', query: 'open an issue on github', gold: ['github/create_issue'] },
];

let fake: FakeOllama;
let dataset: string;
before(async () => {
  fake = await startFakeOllama();
  dataset = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-data-'));
  writeFileSync(join(dataset, 'tools.json'), JSON.stringify(TOOLS));
  writeFileSync(join(dataset, 'queries.json'), JSON.stringify(QUERIES));
});
after(async () => {
  await fake.close();
  rmSync(dataset, { recursive: true, force: true });
});

function bench(args: string[]) {
  return runBenchCli(['--dataset', dataset, ...args]);
}

/** A URL on a port nothing listens on. */
function closedPortUrl(): Promise<string> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(`http://127.0.0.1:${port}`));
    });
  });
}

type Result = Record<string, unknown> & { searcher: string; mode: string; embedder: string };

for (const mode of ['hybrid', 'vector'] as const) {
  test(`--mode ${mode} embeds the catalog and every query through Ollama and reports the mcp-lens entry`, async () => {
    fake.resetCounters();
    const run = await bench(['--mode', mode, '--ollama-host', fake.url, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { tools: number; queries: number; results: Result[] };
    assert.equal(report.tools, TOOLS.length);
    assert.equal(report.queries, QUERIES.length);
    const lens = report.results.find((r) => r.searcher === 'mcp-lens');
    assert.ok(lens, `no mcp-lens entry in ${run.stdout}`);
    assert.equal(lens.mode, mode);
    assert.equal(lens.embedder, 'ollama:nomic-embed-text');
    for (const metric of ['recall@1', 'recall@5', 'recall@10', 'mrr@10', 'complete@10']) {
      const value = lens[metric];
      assert.ok(typeof value === 'number' && value >= 0 && value <= 1, `${metric} = ${String(value)}`);
    }
    assert.ok(
      report.results.some((r) => r.searcher === 'bm25-reference'),
      'the reference searchers ran in the same report',
    );
    // Every tool embedded once as a document, every query once as a query, all over /api/embed.
    const documents = fake.embedInputs.filter((t) => t.startsWith('search_document: '));
    const queries = fake.embedInputs.filter((t) => t.startsWith('search_query: '));
    assert.equal(documents.length, TOOLS.length, fake.embedInputs.join('\n'));
    assert.equal(queries.length, QUERIES.length);
    assert.ok(queries.some((q) => q.includes('weather forecast in Paris')));
    assert.ok((fake.requests.get('/api/embed') ?? 0) >= 1 + QUERIES.length);
  });
}

test('Ollama unreachable: exits non-zero and says vector/hybrid need Ollama at that address', async () => {
  const url = await closedPortUrl();
  const run = await bench(['--mode', 'hybrid', '--ollama-host', url, '--json']);
  assert.equal(run.code, 1);
  assert.equal(run.stdout, '', 'no report on stdout');
  assert.match(
    run.stderr,
    new RegExp(`needs Ollama for --mode hybrid: Ollama unreachable at ${url.replace(/\./g, '\\.')}`),
  );
});

test('model missing: exits non-zero and names the pull command', async () => {
  const bare = await startFakeOllama({ models: {} });
  try {
    const run = await bench(['--mode', 'vector', '--ollama-host', bare.url]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /needs Ollama model nomic-embed-text at .*: run `ollama pull nomic-embed-text`/);
    assert.equal(bare.embedCalls, 0);
  } finally {
    await bare.close();
  }
});
