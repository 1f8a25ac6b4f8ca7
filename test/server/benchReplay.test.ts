// `mcp-lens bench --history`: search learning measured by replay, end to end through the CLI
// (tsx), on a small set written for this test in the bench format. "tally", "literature" and
// "folder contents" are words no tool uses: cold, keyword search cannot find their tools; after
// history holding other requests with those words, it does. Bounded: a few dozen searches.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReplayReport } from '../../bench/src/replay';
import { replaySplit } from '../../bench/src/replaySplit';
import type { BenchQuery } from '../../bench/src/dataset';
import { runBenchCli } from '../fixtures/benchCli';

let dir: string;
const tools = [
  { server: 'calc', name: 'get_sum', description: 'Returns the sum of two numbers' },
  {
    server: 'papers',
    name: 'search_papers',
    description: 'Search arXiv papers by keyword; returns titles and abstracts',
  },
  { server: 'files', name: 'list_directory', description: 'List the entries of a directory, with their sizes' },
  { server: 'files', name: 'read_file', description: "Read a text file's contents" },
  { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city' },
];
/** Requests for one gold tool, ids `<prefix>1`, `<prefix>2`, … */
const requestsFor = (prefix: string, gold: string, texts: string[]): (BenchQuery & { gold: string[] })[] =>
  texts.map((query, i) => ({ id: `${prefix}${i + 1}`, query, gold: [gold] }));
const queries = [
  ...requestsFor('s', 'calc/get_sum', [
    'tally 3 and 4',
    'tally up 10 and 20',
    'tally these for me',
    'tally my expenses',
  ]),
  ...requestsFor('p', 'papers/search_papers', [
    'literature on protein folding',
    'recent literature about transformers',
    'literature review of graph neural nets',
    'literature on sleep',
  ]),
  ...requestsFor('d', 'files/list_directory', [
    'folder contents of ~/music',
    'show the folder contents',
    'what are the folder contents here',
    'folder contents please',
  ]),
  ...requestsFor('w', 'weather/get_forecast', ['will it rain in Paris']),
];

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-replay-'));
  mkdirSync(join(dir, 'gaps'));
  writeFileSync(join(dir, 'gaps', 'tools.json'), JSON.stringify(tools));
  writeFileSync(join(dir, 'gaps', 'queries.json'), JSON.stringify(queries));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the split: each tool with several requests gives history and evaluated ones, a lone request neither, the same for a seed', () => {
  const split = replaySplit(queries, 0.5, 7);
  for (const tool of ['calc/get_sum', 'papers/search_papers', 'files/list_directory']) {
    assert.equal(split.history.filter((x) => x.gold[0] === tool).length, 2, tool);
    assert.equal(split.evaluated.filter((x) => x.gold[0] === tool).length, 2, tool);
  }
  assert.ok(![...split.history, ...split.evaluated].some((x) => x.id === 'w1'));
  assert.deepEqual(replaySplit(queries, 0.5, 7), split);
  assert.notDeepEqual(
    replaySplit(queries, 0.5, 8).history.map((x) => x.id),
    split.history.map((x) => x.id),
  );
  // Never all of a tool's requests, never none once there is a share.
  assert.equal(replaySplit(queries, 1, 7).evaluated.length, 3);
  assert.equal(replaySplit(queries, 0.01, 7).history.length, 3);
  assert.equal(replaySplit(queries, 0, 7).history.length, 0);
});

test('--history: learning finds what keyword search cannot; without history nothing changes', async () => {
  const r = await runBenchCli([
    '--dataset',
    join(dir, 'gaps'),
    '--history',
    '0.5',
    '--wrong',
    '0,0.5',
    '--seed',
    '3',
    '--json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as ReplayReport;
  assert.equal(report.dataset, 'gaps');
  assert.deepEqual([report.fed, report.evaluated], [6, 6]);
  assert.equal(report.without.all['recall@1'], 0, 'cold, no evaluated request finds its tool first');
  assert.equal(report.without.all['recall@1 max'], 1, 'each request is for one tool');
  const [clean, noisy] = report.with;
  assert.deepEqual([clean!.wrong, clean!.noticed, noisy!.wrong], [0, 0, 0.5]);
  assert.equal(clean!.figures.all['recall@5'], 1, 'every evaluated request finds its tool');
  // Two past requests do not outweigh a strong keyword match: "show the folder contents" keeps
  // read_file ("contents") first and list_directory second.
  assert.equal(clean!.figures.all['recall@1'], 0.833);
  assert.ok(noisy!.figures.all['mrr@10'] >= report.without.all['mrr@10']);

  const cold = await runBenchCli(['--dataset', join(dir, 'gaps'), '--history', '0', '--wrong', '0', '--json']);
  const coldReport = JSON.parse(cold.stdout) as ReplayReport;
  assert.deepEqual(coldReport.with[0]!.figures, coldReport.without);
  assert.equal(coldReport.with[0]!.learned, 0);
});

test('--history --all writes its own section, and the table names what it shows', async () => {
  const out = join(dir, 'results.md');
  writeFileSync(out, '# results\n\n<!-- search bench: start -->\nkept\n<!-- search bench: end -->\n');
  const r = await runBenchCli(['--all', '--history', '0.5', '--out', out], { MCP_LENS_BENCH_DIR: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^gaps: 50% of each tool's requests fed as history \(6 requests\), 6 evaluated \(\d+ held out; R@1 at most 1\.000, held out 1\.000: a request for n tools/m,
  );
  assert.match(r.stdout, /with learning +30%, 50% of them noticed/);
  const md = readFileSync(out, 'utf8');
  assert.match(md, /<!-- search bench: start -->\nkept\n<!-- search bench: end -->/, 'the other sections stay');
  assert.match(md, /<!-- learning bench: start -->\n# Search learning \(replay\)/);
  assert.match(md, /\| with learning \| 10%, silent \| \d+ \|/);
});

test('--history flags are checked', async () => {
  for (const [args, message] of [
    [['--history', '2'], /--history wants a share between 0 and 1, got "2"/],
    [['--history', '0.5', '--wrong', '0.1,x'], /--wrong wants a share between 0 and 1, got "x"/],
    [['--history', '0.5', '--seeds', '0'], /--seeds wants an integer from 1 to 100/],
    [['--seed', '2'], /--seed needs --history/],
    [['--history', '0.5', '--mode', 'hybrid'], /--history replays keyword search only/],
  ] as const) {
    const r = await runBenchCli(['--dataset', join(dir, 'gaps'), ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
