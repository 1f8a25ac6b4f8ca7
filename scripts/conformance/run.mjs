// `npm run test:conformance`: the official MCP conformance suite (installed by install.mjs) against
// MCP Lens. Each part is one module; the run fails when any part does.
//  - client auth: MCP Lens's upstream OAuth client through every client auth scenario (clientAuth.mjs).
import { installConformance } from './install.mjs';
import { runClientAuthSuites } from './clientAuth.mjs';

const { run } = await installConformance();
const parts = [['client auth', () => runClientAuthSuites(run)]];
let failed = 0;
for (const [name, part] of parts) {
  const { ok } = await part();
  process.stdout.write(`conformance ${name}: ${ok ? 'passed' : 'FAILED'}\n`);
  if (!ok) failed++;
}
process.exit(failed ? 1 : 0);
