// `mcp-lens bench --embedder …` end to end through the CLI (tsx): one run reports keyword, vector
// and hybrid side by side, through Ollama's protocol or an OpenAI-compatible endpoint (real HTTP
// servers on 127.0.0.1 speaking each), and the hybrid fusion's yield knob, measured with a
// vector ranking that is right where keyword search is weak: off → the first hit stays
// keyword's, on → fixed, and --show-changes lists exactly that request.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fakeOpenAiEmbeddings';
import { runBenchCli } from '../fixtures/benchCli';

const TOOLS = [
  { server: 'papers', name: 'search_papers', description: 'Search academic papers and preprints by topic' },
  { server: 'net', name: 'list_networks', description: 'List Docker networks on the host' },
  { server: 'web', name: 'search_web', description: 'Search the web for pages' },
  { server: 'files', name: 'read_file', description: 'Read a file from disk' },
];
const QUERIES = [
  // Keyword search knows one word of six ("networks") and puts list_networks first; a model that
  // knows German (the fake's meanings) puts search_papers first.
  { id: 'weak', query: 'Wissenschaftliche Literatur über neuronale Networks suchen', gold: ['papers/search_papers'] },
  // Covered by keyword search: yield or not, its first hit stays.
  { id: 'strong', query: 'read a file from disk', gold: ['files/read_file'] },
  { id: 'web', query: 'search the web for pages about cats', gold: ['web/search_web'] },
];
const MEANINGS = { wissenschaftliche: 'academic', literatur: 'papers', suchen: 'search', neuronale: 'neural' };
const KEY = 'sk-bench-secret-0123456789';

let ollama: FakeOllama;
let openai: FakeOpenAi;
let dataset: string;
before(async () => {
  ollama = await startFakeOllama({ meanings: MEANINGS });
  openai = await startFakeOpenAi({ apiKey: KEY, models: { 'bge-m3': 64 }, meanings: MEANINGS });
  dataset = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-semantic-'));
  writeFileSync(join(dataset, 'tools.json'), JSON.stringify(TOOLS));
  writeFileSync(join(dataset, 'queries.json'), JSON.stringify(QUERIES));
});
after(async () => {
  await ollama.close();
  await openai.close();
  rmSync(dataset, { recursive: true, force: true });
});

interface Result {
  searcher: string;
  mode: string;
  embedder: string;
  'recall@1': number;
}
interface Report {
  results: Result[];
  top1_changes?: {
    from: string;
    to: string;
    fixed: number;
    broken: number;
    other: number;
    changes: { id: string; from: string; to: string; verdict: string }[];
  };
}

async function bench(args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runBenchCli(['--dataset', dataset, ...args], env);
  return { ...run, report: run.code === 0 && args.includes('--json') ? (JSON.parse(run.stdout) as Report) : undefined };
}

const lens = (report: Report | undefined, mode: string) =>
  report?.results.find((r) => r.searcher === 'mcp-lens' && r.mode === mode);

test('--embedder ollama: keyword, vector and hybrid in one report; the catalog and each request embedded once', async () => {
  ollama.resetCounters();
  const run = await bench(['--embedder', 'ollama', '--ollama-host', ollama.url, '--show-changes', '--json']);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    run.report!.results.map((r) => `${r.searcher} ${r.mode} ${r.embedder}`),
    [
      'mcp-lens keyword none',
      'mcp-lens vector ollama:nomic-embed-text',
      'mcp-lens hybrid ollama:nomic-embed-text',
      'bm25-reference keyword none',
      'tfidf-reference keyword none',
    ],
  );
  // Hybrid and vector share the store and the query vectors: nothing is embedded twice.
  assert.equal(ollama.embedInputs.filter((t) => t.startsWith('search_document: ')).length, TOOLS.length);
  assert.equal(ollama.embedInputs.filter((t) => t.startsWith('search_query: ')).length, QUERIES.length);
  // The meaning ranking is right on the weak request (vector mode finds it first)…
  assert.equal(lens(run.report, 'vector')!['recall@1'], 1);
  // …but with the yield off (the default) hybrid keeps keyword search's first hit: no first hit changes.
  assert.equal(lens(run.report, 'hybrid')!['recall@1'], lens(run.report, 'keyword')!['recall@1']);
  assert.ok(lens(run.report, 'keyword')!['recall@1'] < 1);
  assert.deepEqual(run.report!.top1_changes, {
    from: 'mcp-lens',
    to: 'mcp-lens/hybrid',
    fixed: 0,
    broken: 0,
    other: 0,
    changes: [],
  });
});

test('--fusion-yield: the weak request is fixed, the covered ones keep their first hit, and --show-changes names it alone', async () => {
  const on = await bench([
    '--embedder',
    'ollama',
    '--ollama-host',
    ollama.url,
    '--fusion-yield',
    '0.5',
    '--show-changes',
    '--json',
  ]);
  assert.equal(on.code, 0, on.stderr);
  assert.equal(lens(on.report, 'hybrid, yield 0.5')!['recall@1'], 1);
  assert.deepEqual(on.report!.top1_changes!.changes, [
    { id: 'weak', query: QUERIES[0]!.query, from: 'net/list_networks', to: 'papers/search_papers', verdict: 'fixed' },
  ]);
  // The listing for people, after the table.
  const text = await bench([
    '--embedder',
    'ollama',
    '--ollama-host',
    ollama.url,
    '--fusion-yield',
    '0.5',
    '--show-changes',
  ]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /first hit, mcp-lens → mcp-lens\/hybrid: 1 requests change \(1 fixed, 0 broken, 0 other\)\n {2}fixed {3}weak {2}"Wissenschaftliche.*" {2}net\/list_networks → papers\/search_papers/,
  );
});

test('--embedder openai: the same three modes through /v1/embeddings, the key sent and never printed', async () => {
  openai.reset();
  const run = await bench(['--embedder', 'openai', '--embed-url', openai.url, '--model', 'bge-m3', '--json'], {
    MCP_LENS_EMBED_API_KEY: KEY,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    run.report!.results.filter((r) => r.searcher === 'mcp-lens').map((r) => `${r.mode} ${r.embedder}`),
    ['keyword none', 'vector openai:bge-m3', 'hybrid openai:bge-m3'],
  );
  assert.equal(lens(run.report, 'vector')!['recall@1'], 1);
  assert.ok(openai.authorizations.length > 0 && openai.authorizations.every((a) => a === `Bearer ${KEY}`));
  assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
  // Besides the probes (one short embedding each), the catalog once and each request once.
  const embedded = openai.inputs.filter((t) => t !== 'probe');
  assert.equal(embedded.length, TOOLS.length + QUERIES.length, embedded.join('\n'));
  assert.deepEqual(
    embedded.slice(TOOLS.length),
    QUERIES.map((q) => q.query),
  );
});

test('--embedder openai: a wrong or missing key, an unknown model, a missing URL: plain errors, no key', async () => {
  const wrong = await bench(['--embedder', 'openai', '--embed-url', openai.url, '--model', 'bge-m3'], {
    MCP_LENS_EMBED_API_KEY: 'sk-wrong-key-000000',
  });
  assert.equal(wrong.code, 1);
  assert.match(
    wrong.stderr,
    /needs an OpenAI-compatible embeddings endpoint for --mode vector: http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings refused the request \(HTTP 401\): check MCP_LENS_EMBED_API_KEY/,
  );
  assert.ok(!wrong.stderr.includes('sk-wro') && !wrong.stdout.includes('sk-wro'), wrong.stderr);
  const none = await bench(['--embedder', 'openai', '--embed-url', openai.url, '--model', 'bge-m3'], {
    MCP_LENS_EMBED_API_KEY: '',
  });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /HTTP 401/);
  const model = await bench(['--embedder', 'openai', '--embed-url', openai.url, '--model', 'nope'], {
    MCP_LENS_EMBED_API_KEY: KEY,
  });
  assert.equal(model.code, 1);
  assert.match(model.stderr, /model "nope" not found/);
  const usage = await bench(['--embedder', 'openai', '--model', 'bge-m3']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--embedder openai needs --embed-url URL and --model NAME/);
});
