import { join } from 'node:path';
import { EVERYTHING, startLens, ROOT } from '../fixtures/gatewayLens';
const F = join(ROOT, 'test/fixtures/servers/faulty/faulty.mjs');
const S = join(ROOT, 'test/fixtures/servers');
const f = (mode: string) => ({ type: 'stdio' as const, command: process.execPath, args: [F, '--mode', mode] });
async function main() {
  const t0 = Date.now();
  const w = await startLens({ everything: EVERYTHING, crashstart: f('crash-start'), hanglist: f('hang-list'), hangcall: f('hang-call'), huge: f('huge'), schemas: f('bad-schemas'), dups: f('dup-names'), names: f('bad-names'), storm: f('storm'), hostile: f('hostile'),
    hanginit: { type: 'stdio', command: process.execPath, args: [join(S, 'hang-init.mjs')] }, garbage: { type: 'stdio', command: process.execPath, args: [join(S, 'garbage-stdout.mjs')] } },
    { connectTimeoutSeconds: 2, callTimeoutSeconds: 3 });
  console.log('started in', Date.now() - t0);
  for (const s of w.lens.servers()) console.log(s.name, s.state, s.toolCount, (s.error ?? '').slice(0, 200));
  console.log(w.lens.tools().filter(t => t.server !== 'everything').map(t => `${t.key} -> ${t.name}`).join('\n').slice(0, 3000));
  const call = async (name: string, args = {}) => { const t = Date.now(); const r = await w.lens.callTool(name, args); console.log(name, Date.now() - t, 'ms', JSON.stringify(r).slice(0, 300), process.memoryUsage().rss / 1e6); };
  await call('hangcall_hang');
  await call('huge_huge', { mb: 50 });
  await call('huge_ping');
  await call('schemas_schema_ref_loop', { node: 1 });
  await call('schemas_schema_wide', { field_1: 'a' });
  await call('dups_twin');
  const r = await w.lens.search({ query: 'deepword zyxwvutsdeepword' }); console.log(r.hits.map(h => h.name));
  await w.close();
}
main();
