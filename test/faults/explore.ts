import { join } from 'node:path';
import { EVERYTHING, startLens, ROOT } from '../fixtures/gatewayLens';
const F = join(ROOT, 'test/fixtures/servers/faulty/faulty.mjs');
const f = (mode: string) => ({ type: 'stdio' as const, command: process.execPath, args: [F, '--mode', mode] });
async function main() {
  const t0 = Date.now();
  const w = await startLens({ everything: EVERYTHING, crashstart: f('crash-start'), hanglist: f('hang-list'), hangcall: f('hang-call'), huge: f('huge'), dups: f('dup-names') },
    { connectTimeoutSeconds: 5, callTimeoutSeconds: 20 });
  console.log('started in', Date.now() - t0);
  for (const s of w.lens.servers()) console.log(s.name, s.state, s.toolCount, (s.error ?? '').slice(0, 200), s.stderrTail);
  const call = async (name: string, args = {}) => { const t = Date.now(); const r = await w.lens.callTool(name, args); console.log(name, Date.now() - t, 'ms', JSON.stringify(r).slice(0, 400), process.memoryUsage().rss / 1e6); };
  await call('huge_huge', { mb: 50 });
  await call('huge_ping');
  await call('huge_huge', { mb: 9 });
  await call('huge_ping');
  await call('dups_twin');
  console.log(w.lens.servers().find(s=>s.name==='huge'));
  await w.close();
}
main();
