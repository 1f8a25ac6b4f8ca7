// The data the tests and benches need lives in the repo, each piece with where it came from:
// a fresh clone with nothing beside it benches and tests on its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  allDatasetDirs,
  datasetDir,
  datasetToolsFile,
  recordedCatalogFile,
  repoRoot,
} from '../../bench/src/benchFiles';
import { loadDataset } from '../../bench/src/dataset';
import { RECORDED_CATALOG_FILE, readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';

function withEnv<T>(name: string, value: string | undefined, fn: () => T): T {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

const meta = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown> & {
    counts?: Record<string, number>;
  };

test('the bench finds its five datasets inside the repo by default, each with source and license', () => {
  const dirs = withEnv('MCP_LENS_BENCH_DIR', undefined, allDatasetDirs);
  assert.deepEqual(
    dirs.map((d) => basename(d)),
    ['mcp-servers', 'mcp-servers-multilingual', 'metatool', 'toolbench', 'workspace-19'],
  );
  for (const dir of dirs) {
    assert.ok(dir.startsWith(join(repoRoot(), 'bench', 'datasets')), dir);
    const m = meta(dir);
    for (const field of ['source', 'commit', 'license']) assert.ok(field in m, `${dir}/meta.json has ${field}`);
    assert.match(String(m.license), /MIT|Apache-2\.0/);
    const ds = loadDataset(dir);
    assert.equal(ds.tools.length, m.counts?.tools, `${basename(dir)}: tools as counted in meta.json`);
    assert.equal(ds.queries.length, m.counts?.queries, `${basename(dir)}: queries as counted in meta.json`);
  }
});

test("a set of other requests over another set's catalog names it in meta.json (tools_from) instead of copying it", () => {
  const dir = datasetDir('mcp-servers-multilingual');
  assert.equal(datasetToolsFile(dir), join(datasetDir('mcp-servers'), 'tools.json'));
  const ds = loadDataset(dir);
  const keys = new Set(ds.tools.map((t) => t.key));
  assert.deepEqual(
    ds.tools.map((t) => t.key),
    loadDataset(datasetDir('mcp-servers')).tools.map((t) => t.key),
  );
  for (const q of ds.queries) {
    for (const k of [...q.gold, ...Object.values(q.goldAlternatives ?? {}).flat()])
      assert.ok(keys.has(k), `${q.id}: ${k} is in the catalog`);
    assert.ok(q.kind && /^(de|zh|fr|es|ja)$/.test(q.kind), `${q.id}: kind is its language`);
  }
  // German and Chinese at least, each tool with two requests in each, for a replay's halves.
  for (const lang of ['de', 'zh']) {
    const perTool = new Map<string, number>();
    for (const q of ds.queries.filter((x) => x.kind === lang))
      perTool.set(q.gold[0]!, (perTool.get(q.gold[0]!) ?? 0) + 1);
    assert.ok(
      [...perTool.values()].every((n) => n >= 2),
      `${lang}: every tool has two requests`,
    );
  }
  // A folder whose meta.json names no catalog, or one that is not there, is not a dataset.
  const other = mkdtempSync(join(tmpdir(), 'mcp-lens-datasets-'));
  try {
    writeFileSync(join(other, 'meta.json'), JSON.stringify({ tools_from: '../nowhere/tools.json' }));
    assert.equal(datasetToolsFile(other), undefined);
    assert.throws(() => loadDataset(other), /no tools\.json, and no tools_from/);
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

test('MCP_LENS_BENCH_DIR still points the bench elsewhere', () => {
  const other = mkdtempSync(join(tmpdir(), 'mcp-lens-datasets-'));
  try {
    mkdirSync(join(other, 'mine'));
    writeFileSync(join(other, 'mine', 'tools.json'), '[]');
    mkdirSync(join(other, 'not-a-dataset'));
    withEnv('MCP_LENS_BENCH_DIR', other, () => {
      assert.deepEqual(allDatasetDirs(), [join(other, 'mine')]);
      assert.equal(datasetDir('toolbench'), join(other, 'toolbench'));
    });
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

test('the recorded 19-server catalog is in the repo with its meta.json', () => {
  assert.equal(recordedCatalogFile(), RECORDED_CATALOG_FILE);
  const catalog = readRecordedCatalog();
  const servers = Object.keys(catalog.servers);
  assert.equal(servers.length, 19);
  assert.equal(
    Object.values(catalog.servers).reduce((n, s) => n + s.tools.length, 0),
    371,
  );
  const m = meta(join(repoRoot(), 'test', 'fixtures', 'catalog'));
  for (const field of ['what', 'source', 'license']) assert.ok(field in m, `catalog meta.json has ${field}`);
  assert.deepEqual(Object.keys(m.servers as object), servers);
});

test('no source, test or script reaches outside the repo for data', () => {
  const outside = /\.\.\/shared\/|\/work\/shared|'\.\.', 'shared'/;
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|mts|mjs|cjs|js|sh)$/.test(e.name)) {
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach(
            (line, i) => outside.test(line) && found.push(`${p.slice(repoRoot().length + 1)}:${i + 1}: ${line.trim()}`),
          );
      }
    }
  };
  for (const dir of ['client', 'server', 'webview', 'protocol', 'scripts', 'test']) walk(join(repoRoot(), dir));
  assert.deepEqual(found, []);
});
