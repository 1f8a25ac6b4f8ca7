// `mcp-lens bench`'s reporting flags end to end through the CLI (tsx), on a folder of two small
// sets: part of the real mcp-servers set (its request kinds included) and a tiny set without
// kinds. Bounded: about 100 requests in all.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runBenchCli } from '../fixtures/benchCli';

const root = resolve(__dirname, '../..');
const SEARCHERS = ['mcp-lens', 'bm25-reference', 'tfidf-reference'];

interface Metrics {
  'recall@1': number;
  'recall@5': number;
  'recall@10': number;
  'mrr@10': number;
  'complete@10': number;
  queries?: number;
}
interface Result extends Metrics {
  searcher: string;
  by_kind?: Record<string, Metrics>;
  split: Record<'dev' | 'held-out', Metrics>;
}
interface Report {
  dataset: string;
  queries: number;
  results: Result[];
}
interface Row {
  dataset: string;
  id: string;
  query: string;
  kind?: string;
  half: string;
  gold: string[];
  gold_alternatives?: Record<string, string[]>;
  top10: Record<string, string[]>;
  first_gold_rank: Record<string, number | null>;
}

let dir: string;
let kinds: Map<string, number>;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-flags-'));
  const real = join(root, 'bench', 'datasets', 'mcp-servers');
  // Every 4th request of the real set: all five kinds, ~73 requests.
  const queries = (JSON.parse(readFileSync(join(real, 'queries.json'), 'utf8')) as { kind: string }[]).filter(
    (_, i) => i % 4 === 0,
  );
  kinds = new Map();
  for (const q of queries) kinds.set(q.kind, (kinds.get(q.kind) ?? 0) + 1);
  mkdirSync(join(dir, 'a-real'));
  writeFileSync(join(dir, 'a-real', 'tools.json'), readFileSync(join(real, 'tools.json')));
  writeFileSync(join(dir, 'a-real', 'queries.json'), JSON.stringify(queries));
  mkdirSync(join(dir, 'b-tiny'));
  writeFileSync(
    join(dir, 'b-tiny', 'tools.json'),
    JSON.stringify([
      { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city' },
      { server: 'files', name: 'read_file', description: 'Read a file from disk' },
      { server: 'files', name: 'delete_file', description: 'Delete a file from disk' },
    ]),
  );
  writeFileSync(
    join(dir, 'b-tiny', 'queries.json'),
    JSON.stringify([
      { id: 't1', query: 'forecast for Paris', gold: ['weather/get_forecast'] },
      {
        id: 't2',
        query: 'remove the file',
        gold: ['files/delete_file'],
        gold_alternatives: { 'files/delete_file': ['files/read_file'] },
      },
      { id: 't3', query: 'unrelated words entirely', gold: ['files/read_file'] },
    ]),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

function bench(args: string[]) {
  return runBenchCli(args, { MCP_LENS_BENCH_DIR: dir });
}

test("--all --json --per-query: every searcher per kind and per half, every request's top 10, a warning exactly where MCP Lens is below BM25", async () => {
  const out = join(dir, 'results.md');
  const perQuery = join(dir, 'per-query.jsonl');
  // Another bench's section of the same file, and a search section from an earlier run.
  writeFileSync(
    out,
    '<!-- search bench: start -->\nold figures\n<!-- search bench: end -->\n\n<!-- other bench: start -->\nkept\n<!-- other bench: end -->\n',
  );
  const run = await bench(['--all', '--json', '--out', out, '--per-query', perQuery]);
  assert.equal(run.code, 0, run.stderr);
  const reports = JSON.parse(run.stdout) as Report[];
  assert.deepEqual(
    reports.map((r) => r.dataset),
    ['a-real', 'b-tiny'],
  );

  // The JSON contract the before-stop hook reads, plus the new breakdowns.
  for (const report of reports) {
    assert.deepEqual(
      report.results.map((r) => r.searcher),
      SEARCHERS,
    );
    for (const r of report.results) {
      for (const m of ['recall@1', 'recall@5', 'recall@10', 'mrr@10', 'complete@10'] as const)
        assert.ok(r[m] >= 0 && r[m] <= 1, `${report.dataset} ${r.searcher} ${m}`);
      assert.equal(r.split.dev.queries! + r.split['held-out'].queries!, report.queries);
      assert.ok(r.split.dev.queries! > 0 && r.split['held-out'].queries! > 0);
    }
  }
  const [real, tiny] = reports as [Report, Report];
  for (const r of real.results) {
    assert.deepEqual(Object.keys(r.by_kind ?? {}).sort(), [...kinds.keys()].sort());
    for (const [kind, n] of kinds) assert.equal(r.by_kind![kind]!.queries, n, kind);
  }
  assert.ok(
    tiny.results.every((r) => r.by_kind === undefined),
    'no kinds, no per-kind figures',
  );

  // Per-query lines: one per request, every searcher's top 10, ranks that agree with them and with the totals.
  const rows = readFileSync(perQuery, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
  assert.equal(rows.length, real.queries + tiny.queries);
  for (const row of rows) {
    assert.deepEqual(Object.keys(row.top10), SEARCHERS);
    for (const s of SEARCHERS) {
      assert.ok(row.top10[s]!.length <= 10);
      const accepted = new Set(row.gold.flatMap((g) => [g, ...(row.gold_alternatives?.[g] ?? [])]));
      const i = row.top10[s]!.findIndex((k) => accepted.has(k));
      assert.equal(row.first_gold_rank[s], i < 0 ? null : i + 1, `${row.id} ${s}`);
    }
    assert.ok(row.half === 'dev' || row.half === 'held-out');
  }
  assert.ok(rows.filter((r) => r.dataset === 'a-real').every((r) => typeof r.kind === 'string'));
  assert.equal(rows.find((r) => r.id === 't2')?.gold_alternatives?.['files/delete_file']?.[0], 'files/read_file');
  // On single-gold requests recall@1 is the share ranked first: the lines and the totals agree.
  const tinyFirst = rows.filter((r) => r.dataset === 'b-tiny' && r.first_gold_rank['mcp-lens'] === 1).length;
  assert.equal(tiny.results[0]!['recall@1'], Math.round((tinyFirst / tiny.queries) * 1000) / 1000);

  // Warnings: one line per set where MCP Lens is below bm25-reference at recall@1 or MRR@10, none elsewhere.
  for (const report of reports) {
    const lens = report.results.find((r) => r.searcher === 'mcp-lens')!;
    const bm25 = report.results.find((r) => r.searcher === 'bm25-reference')!;
    const below = lens['recall@1'] < bm25['recall@1'] || lens['mrr@10'] < bm25['mrr@10'];
    const warned = run.stderr.split('\n').filter((l) => l.startsWith(`warning: ${report.dataset}: MCP Lens`));
    assert.equal(warned.length, below ? 1 : 0, run.stderr);
  }

  // The Markdown file has the same breakdowns, in its own section: the other sections stay.
  const md = readFileSync(out, 'utf8');
  assert.equal(md.split('<!-- search bench: start -->').length, 2, 'one search section');
  assert.doesNotMatch(md, /old figures/);
  assert.match(md, /<!-- other bench: start -->\nkept\n<!-- other bench: end -->/);
  assert.match(md, /a-real per request kind:/);
  assert.match(md, /\| direct \| \d+ \| mcp-lens \| /);
  assert.match(md, /b-tiny per half of the keyword config's split/);
  assert.doesNotMatch(md, /b-tiny per request kind/);
});

test('the text report shows recall@1 and the per-kind table; --help documents --per-query; a bad --per-query path is a clear error', async () => {
  const run = await bench(['--dataset', join(dir, 'a-real')]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /searcher\s+mode\s+R@1\s+R@5\s+R@10\s+MRR@10\s+C@10/);
  assert.match(run.stdout, /a-real per request kind:\nkind\s+n\s+searcher\s+R@1/);
  assert.match(run.stdout, /^dev\s+\d+\s+mcp-lens\s+\d\.\d{3}/m);
  const help = await bench(['--help']);
  assert.match(help.stdout, /--per-query FILE[\s\S]*"top10": \{searcher: \[key, \.\.\.\]\}/);
  const bad = await bench(['--dataset', join(dir, 'b-tiny'), '--per-query', join(dir, 'no-such-dir', 'x.jsonl')]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--per-query .*no-such-dir.*ENOENT/);
  assert.equal(bad.stdout, '');
});
