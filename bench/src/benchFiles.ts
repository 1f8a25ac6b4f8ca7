/**
 * Where the benches find their data. Everything lives in the repository, so a fresh clone
 * benches with nothing beside it: the retrieval datasets under bench/datasets/<name>/ and the
 * recorded 19-server catalog under test/fixtures/catalog/ (each folder has a meta.json with
 * its source and license). MCP_LENS_BENCH_DIR points at another folder of datasets.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The repo root: the folder holding package.json above this file (source) or bundle (dist/). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * The file `mcp-lens bench --all` writes its sections into: `--out` when given; the checkout's
 * own bench-results.md when run inside the checkout this bench comes from (its root holds
 * .git); else bench-results.md in the working folder. So a run from an installed package or
 * from another project never rewrites a file it was not asked to, and a run in the repo keeps
 * the tracked figures in one place.
 */
export function benchResultsFile(
  out: string | undefined,
  cwd: string = process.cwd(),
  root: string = repoRoot(),
): string {
  if (out !== undefined) return resolve(cwd, out);
  const inside = relative(root, cwd);
  const inCheckout = existsSync(join(root, '.git')) && !inside.startsWith('..') && !isAbsolute(inside);
  return join(inCheckout ? root : cwd, 'bench-results.md');
}

/** The folder of retrieval datasets: MCP_LENS_BENCH_DIR, else bench/datasets in the repo. */
export function datasetsDir(): string {
  return process.env.MCP_LENS_BENCH_DIR || join(repoRoot(), 'bench', 'datasets');
}

/** One named dataset's folder (tools.json or meta.json's tools_from, queries.json, meta.json). */
export function datasetDir(name: string): string {
  return join(datasetsDir(), name);
}

/**
 * A dataset folder's catalog: its own tools.json, or the one its meta.json names in
 * `tools_from` (a path relative to the folder, e.g. `../mcp-servers/tools.json`), so a set of
 * other requests over the same catalog does not copy it. Undefined when there is neither.
 */
export function datasetToolsFile(dir: string): string | undefined {
  const own = join(dir, 'tools.json');
  if (existsSync(own)) return own;
  const metaFile = join(dir, 'meta.json');
  if (!existsSync(metaFile)) return undefined;
  let from: unknown;
  try {
    from = (JSON.parse(readFileSync(metaFile, 'utf8')) as { tools_from?: unknown }).tools_from;
  } catch {
    return undefined;
  }
  if (typeof from !== 'string' || from === '') return undefined;
  const file = resolve(dir, from);
  return existsSync(file) ? file : undefined;
}

/** Every dataset folder (one with a catalog: datasetToolsFile) under datasetsDir(), by name. */
export function allDatasetDirs(): string[] {
  const base = datasetsDir();
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((e) => e.isDirectory() && datasetToolsFile(join(base, e.name)) !== undefined)
    .map((e) => join(base, e.name))
    .sort();
}

/** The recorded tools/list of 19 real servers (the repo's fixture; gatewayCatalog.ts takes --fixture FILE). */
export function recordedCatalogFile(): string {
  return join(repoRoot(), 'test', 'fixtures', 'catalog', 'real-workspace-tools.json');
}
