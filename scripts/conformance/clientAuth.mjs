// Runs the official conformance suite's client auth scenarios against MCP Lens's upstream
// client (test/conformance/authClient.ts: the upstream pool, connection and OAuth provider of
// server/src/adapters/upstream/): the `auth` suite (current spec), `backcompat` (2025-03-26),
// `draft` and `extensions`, with client-auth-baseline.yml naming the draft and extension
// scenarios expected to fail. Exits non-zero on any unexpected failure or stale baseline entry.
//
// As a module: `await runClientAuthSuites(run)` with `run` from install.mjs.
// As a script: `node scripts/conformance/clientAuth.mjs` (installs the suite first).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { installConformance } from './install.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT_AUTH_SUITES = ['auth', 'backcompat', 'draft', 'extensions'];

/** The command the suite runs per scenario (it appends the server URL; it splits on spaces). */
export function clientCommand() {
  const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
  const parts = [process.execPath, '--import', tsx, join(root, 'test', 'conformance', 'authClient.ts')];
  if (parts.some((p) => /\s/.test(p)))
    throw new Error(
      `the conformance suite splits its --command on spaces; move the checkout to a path without spaces (${root})`,
    );
  return parts.join(' ');
}

/** Runs each suite; resolves with `{ ok, lines }`: every scenario's result line, in order. */
export async function runClientAuthSuites(run, { log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const command = clientCommand();
  const baseline = join(root, 'scripts', 'conformance', 'client-auth-baseline.yml');
  let ok = true;
  const lines = [];
  for (const suite of CLIENT_AUTH_SUITES) {
    const r = await run(
      ['client', '--command', command, '--suite', suite, '--expected-failures', baseline, '--timeout', '60000'],
      {
        capture: true,
        cwd: root,
      },
    );
    const results = `${r.stdout}\n${r.stderr}`
      .split('\n')
      .filter((l) => /^[✓✗] auth\//.test(l) || /^Total:/.test(l) || /baseline|expected/i.test(l));
    log(`client --suite ${suite}: exit ${r.status}`);
    for (const l of results) log(`  ${l}`);
    lines.push(...results);
    if (r.status !== 0) {
      ok = false;
      log(r.stderr.split('\n').slice(-60).join('\n'));
    }
  }
  return { ok, lines };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { run } = await installConformance();
  const { ok } = await runClientAuthSuites(run);
  process.exit(ok ? 0 : 1);
}
