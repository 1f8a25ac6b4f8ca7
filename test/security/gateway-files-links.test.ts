/**
 * A symlinked `.mcp-lens/gateway.json` made `serve --http` overwrite the file it points at.
 * Now the link is refused (the warning names the file) and the gateway serves on; the same for a
 * linked `.mcp-lens/token` (the generated token is then printed, since no file holds it).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { EVERYTHING, cliEnv, hostileWorkspace, mcpJson, startCli, killStarted } from './hostileWorkspace';

const PRECIOUS = 'not yours to overwrite\n';
const ws = hostileWorkspace(
  {
    '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }),
    '.mcp-lens/gateway.json': { link: 'OUTSIDE/precious.txt' },
    '.mcp-lens/token': { link: 'OUTSIDE/token.txt' },
  },
  { 'precious.txt': PRECIOUS, 'token.txt': PRECIOUS },
);
after(() => {
  killStarted();
  ws.close();
});

test('serve --http refuses linked gateway.json and token, names them, serves on, touches nothing outside', async () => {
  const serve = startCli(
    ['serve', '--http', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')],
    cliEnv(ws),
  );
  try {
    await serve.waitFor(/Press Ctrl\+C to stop/);
    assert.equal(readFileSync(join(ws.outside, 'precious.txt'), 'utf8'), PRECIOUS);
    assert.equal(readFileSync(join(ws.outside, 'token.txt'), 'utf8'), PRECIOUS);
    assert.match(serve.stderr(), /refusing .*\.mcp-lens\/gateway\.json: it is a symbolic link/);
    assert.match(serve.stderr(), /refusing .*\.mcp-lens\/token: it is a symbolic link/);
    assert.match(serve.stderr(), /Token: \S{40,} \(generated; \.mcp-lens\/token could not be written\)/);
  } finally {
    await serve.stop('SIGTERM');
  }
  assert.equal(readFileSync(join(ws.outside, 'precious.txt'), 'utf8'), PRECIOUS, 'nor on the way out');
});
