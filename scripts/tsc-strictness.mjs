// What each stricter compiler flag would cost per target: errors and files under that
// target's folder, measured by a throw-away tsconfig beside each target's own.
//   node scripts/tsc-strictness.mjs [flag ...]   (default: exactOptionalPropertyTypes noUncheckedIndexedAccess)
// The flags are on where they cost nothing or a few local edits (see each tsconfig.json); the
// rest wait for one scheduled commit so they do not collide with work in progress.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TARGETS = ['protocol', 'server', 'client', 'webview', 'test'];
const flags = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['exactOptionalPropertyTypes', 'noUncheckedIndexedAccess'];
const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

console.log('| target | flag | on | errors | files |\n|---|---|---|---|---|');
for (const target of TARGETS) {
  const own = readFileSync(join(ROOT, target, 'tsconfig.json'), 'utf8');
  for (const flag of flags) {
    const probe = join(ROOT, target, `tsconfig.strictness-${process.pid}.json`);
    const compilerOptions = {
      [flag]: true,
      noEmit: true,
      composite: false,
      declaration: false,
      emitDeclarationOnly: false,
      incremental: false,
      rootDir: '..',
    };
    writeFileSync(probe, JSON.stringify({ extends: './tsconfig.json', compilerOptions }));
    try {
      const out = spawnSync(process.execPath, [tsc, '-p', probe], { cwd: ROOT, encoding: 'utf8' }).stdout;
      const errors = out.split('\n').filter((l) => l.startsWith(`${target}/`) && l.includes('error TS'));
      const files = new Set(errors.map((l) => l.slice(0, l.indexOf('('))));
      console.log(
        `| ${target} | ${flag} | ${own.includes(`"${flag}": true`) ? 'yes' : 'no'} | ${errors.length} | ${files.size} |`,
      );
    } finally {
      rmSync(probe, { force: true });
    }
  }
}
