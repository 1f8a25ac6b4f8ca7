// Every `MCP_LENS_*` environment variable is in README.md's one table, and every row of that
// table is still read somewhere: a switch nobody can find, or a row for one that is gone, fails
// here. The scan covers the product, the benches, the tests, the scripts and CI, and the docs
// that name variables (not CHANGELOG.md, which keeps history).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const NAME = /MCP_LENS_[A-Z0-9_]+/g;
const SCANNED_DIRS = ['server', 'client', 'webview', 'protocol', 'bench/src', 'scripts', 'test', '.ci', '.github'];
const SCANNED_FILES = ['package.json', 'esbuild.mjs', 'AGENTS.md', 'ARCHITECTURE.md', 'SECURITY.md'];
// Not scanned: builds, recorded catalogs, and this file, whose examples are not variables.
const SKIPPED = new Set(['node_modules', 'dist', 'fixtures/catalog']);

function walk(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (SKIPPED.has(e.name) || SKIPPED.has(relative(join(ROOT, 'test'), path)) || path === __filename) continue;
    if (e.isDirectory()) walk(path, out);
    else if (/\.(ts|mts|mjs|js|cjs|json|md|sh|yml|yaml)$|^run$/.test(e.name)) out.push(path);
  }
  return out;
}

/** name → files using it, over the scanned sources. */
function namesInSources(): Map<string, string[]> {
  const files = [...SCANNED_DIRS.flatMap((d) => walk(join(ROOT, d), [])), ...SCANNED_FILES.map((f) => join(ROOT, f))];
  const names = new Map<string, string[]>();
  for (const file of files)
    for (const [name] of readFileSync(file, 'utf8').matchAll(NAME))
      names.set(name, [...new Set([...(names.get(name) ?? []), relative(ROOT, file)])]);
  return names;
}

/** The first column of README's "Environment variables" table: exact names, and `PREFIX_<ID>` families. */
function documented(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Environment variables\n'));
  assert.ok(section, 'README.md has a section "## Environment variables"');
  return [...section.matchAll(/^\| `(MCP_LENS_[A-Z0-9_]+(?:<[A-Z]+>)?)` \|/gm)].map((m) => m[1]!);
}

/** A name is covered by a row of its own, by a `PREFIX_<ID>` row, or, when it is a bare prefix (`MCP_LENS_`, `MCP_LENS_E2E_`), by any row it begins. */
function covers(row: string, name: string): boolean {
  const family = row.match(/^(.*_)<[A-Z]+>$/)?.[1];
  if (family !== undefined) return name.startsWith(family) || family.startsWith(name);
  return row === name || (name.endsWith('_') && row.startsWith(name));
}

test("every MCP_LENS_* variable in the sources is in README.md's table, and every row is used", () => {
  const rows = documented();
  assert.ok(rows.length > 0);
  const used = namesInSources();
  const missing = [...used]
    .filter(([name]) => !rows.some((r) => covers(r, name)))
    .map(([n, f]) => `${n} (${f.join(', ')})`);
  assert.deepEqual(missing, [], 'add these to README.md, "Environment variables", or stop reading them');
  const stale = rows.filter((r) => ![...used.keys()].some((name) => covers(r, name) && !name.endsWith('_')));
  assert.deepEqual(stale, [], 'README.md lists variables nothing reads any more');
});

test('the scan finds what it is meant to find', () => {
  assert.ok(covers('MCP_LENS_INPUT_<ID>', 'MCP_LENS_INPUT_GITHUB_TOKEN'));
  assert.ok(covers('MCP_LENS_INPUT_<ID>', 'MCP_LENS_INPUT_'));
  assert.ok(covers('MCP_LENS_E2E_OUT', 'MCP_LENS_E2E_'));
  assert.ok(!covers('MCP_LENS_LOG', 'MCP_LENS_LOGFILE'));
  assert.ok(!covers('MCP_LENS_TOKEN', 'MCP_LENS_TOKEN_FILE'));
  const used = namesInSources();
  for (const name of ['MCP_LENS_TOKEN', 'MCP_LENS_LOG', 'MCP_LENS_E2E_OUT', 'MCP_LENS_CHROMIUM'])
    assert.ok(used.has(name), `${name} is found`);
});
