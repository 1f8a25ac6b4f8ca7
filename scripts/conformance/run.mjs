// `npm run test:conformance`: the official MCP conformance suite (installed by install.mjs) against
// MCP Lens. Each part is one module; the run fails when any part does.
//  - server: the server suites (the registry's 0.1.16, and the main branch the repo carries at
//    revisions 2025-11-25 and 2026-07-28) against an upstream directly and through MCP Lens,
//    exposure `all` and search mode (serverSuite.mjs; needs `node esbuild.mjs server` first).
//  - client auth: MCP Lens's upstream OAuth client through every client auth scenario (clientAuth.mjs).
//
// Options: --reference <dir|command> (the 0.1.16 server suite's upstream), --scenario NAME (one
// server scenario), --suite 0.1.16|2025-11-25|2026-07-28 (one server suite), --json FILE (the
// server tables as JSON), --part server|client-auth (one part only).
import { installConformance } from './install.mjs';
import { installMainSuite } from './mainSuite.mjs';
import { runServerSuite } from './serverSuite.mjs';
import { runClientAuthSuites } from './clientAuth.mjs';

const PARTS = {
  server: async (legacy, args) => runServerSuite({ legacy, main: await installMainSuite({ node: legacy.node }) }, args),
  'client auth': (legacy) => runClientAuthSuites(legacy.run),
};

function parseArgs(argv) {
  const out = { reference: undefined, json: undefined, scenario: undefined, suite: undefined, part: undefined };
  const usage = `usage: run.mjs [--reference <dir|command>] [--scenario NAME] [--suite NAME] [--json FILE] [--part server|client-auth]`;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reference') out.reference = argv[++i];
    else if (argv[i] === '--json') out.json = argv[++i];
    else if (argv[i] === '--scenario') out.scenario = argv[++i];
    else if (argv[i] === '--suite') out.suite = argv[++i];
    else if (argv[i] === '--part') out.part = argv[++i]?.replace('-', ' ');
    else throw new Error(`unknown argument ${argv[i]} (${usage})`);
  }
  if (out.part !== undefined && !(out.part in PARTS)) throw new Error(`unknown part ${out.part} (${usage})`);
  return out;
}

// Ctrl-C or a kill: exit through 'exit', where the server part stops the processes it started.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const args = parseArgs(process.argv.slice(2));
const legacy = await installConformance();
let failed = 0;
for (const [name, part] of Object.entries(PARTS)) {
  if (args.part !== undefined && args.part !== name) continue;
  let ok = false;
  try {
    ({ ok } = await part(legacy, args));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  }
  process.stdout.write(`conformance ${name}: ${ok ? 'passed' : 'FAILED'}\n`);
  if (!ok) failed++;
}
process.exit(failed ? 1 : 0);
