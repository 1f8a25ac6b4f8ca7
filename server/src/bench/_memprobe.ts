import { sanitizeSettings } from '../../../protocol/settings';
import { LensApp } from '../app/lensApp';
import { silentLogger } from '../core/logger';
import { Gateway } from '../gateway/gateway';
const mb = () => { const m = process.memoryUsage(); return `rss ${Math.round(m.rss/1e6)} heap ${Math.round(m.heapUsed/1e6)} ext ${Math.round(m.external/1e6)} ab ${Math.round(m.arrayBuffers/1e6)}`; };
async function main() {
  console.log('start', mb());
  const lens = await LensApp.start({ workspaceFolder: '/tmp/tb20', storageDir: '/tmp/tb20/.probe', settings: sanitizeSettings({}), configFile: '/tmp/tb20/mcp.json', trusted: true, approvals: {}, autoApprove: true, inputs: {}, log: silentLogger });
  console.log('lens started', mb(), lens.tools().length);
  (global as any).gc?.(); console.log('after gc', mb());
  const g = new Gateway({ lens, log: silentLogger });
  g.stats();
  console.log('after stats', mb());
  (global as any).gc?.(); console.log('after gc', mb());
  await lens.search({ query: 'weather forecast' });
  console.log('after search', mb());
  await lens.close();
}
main();
