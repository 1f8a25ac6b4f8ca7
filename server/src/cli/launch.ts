/**
 * `mcp-lens` as installed (dist/cli.js): runs the CLI (cli/main.ts, bundled as dist/cliMain.js)
 * from a V8 code cache in the user's cache folder (adapters/codeCache.ts), so a start spends
 * its first tens of milliseconds on work rather than on compiling the bundle again. `serve`
 * makes the cache when there is none that fits: its start-up is the one an MCP client waits
 * for, at every session; the other commands use what it made.
 */
import '../heapFlags';
import { join } from 'node:path';
import { runWithCodeCache } from '../adapters/codeCache';
import { cacheHome } from '../adapters/workspaceState';

runWithCodeCache(join(__dirname, 'cliMain.js'), {
  dir: join(cacheHome(), 'code-cache'),
  write: process.argv[2] === 'serve',
});
