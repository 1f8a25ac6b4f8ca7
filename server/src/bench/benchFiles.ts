/**
 * Where the benches find their data. Everything lives in the repository, so a fresh clone
 * benches with nothing beside it: the retrieval datasets under bench/datasets/<name>/ and the
 * recorded 19-server catalog under test/fixtures/catalog/ (each folder has a meta.json with
 * its source and license). MCP_LENS_BENCH_DIR points at another folder of datasets,
 * MCP_LENS_CATALOG at another recorded catalog.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repo root: the folder holding package.json above this file (source) or bundle (dist/). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The folder of retrieval datasets: MCP_LENS_BENCH_DIR, else bench/datasets in the repo. */
export function datasetsDir(): string {
  return process.env.MCP_LENS_BENCH_DIR || join(repoRoot(), 'bench', 'datasets');
}

/** One named dataset's folder (tools.json, queries.json, meta.json). */
export function datasetDir(name: string): string {
  return join(datasetsDir(), name);
}

/** Every dataset folder (one holding a tools.json) under datasetsDir(), by name. */
export function allDatasetDirs(): string[] {
  const base = datasetsDir();
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(base, e.name, 'tools.json')))
    .map((e) => join(base, e.name))
    .sort();
}

/** The recorded tools/list of 19 real servers: MCP_LENS_CATALOG, else the repo's fixture. */
export function recordedCatalogFile(): string {
  return process.env.MCP_LENS_CATALOG || join(repoRoot(), 'test', 'fixtures', 'catalog', 'real-workspace-tools.json');
}
