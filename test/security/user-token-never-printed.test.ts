/**
 * The dashboard URL on stderr carried the token even when the user set it with
 * MCP_LENS_TOKEN. A token the user chose is now never printed (the line says where to put it);
 * only a token MCP Lens generated appears in the dashboard link (it is in .mcp-lens/token too).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { EVERYTHING, cliEnv, hostileWorkspace, mcpJson, startCli, strongToken, killStarted } from './hostileWorkspace';

const ws = hostileWorkspace({ '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }) });
after(() => {
  killStarted();
  ws.close();
});
const serveArgs = ['serve', '--http', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')];

test('a token given in MCP_LENS_TOKEN never appears on stderr', async () => {
  const token = strongToken();
  const serve = startCli(serveArgs, cliEnv(ws, { MCP_LENS_TOKEN: token, MCP_LENS_LOG: 'debug' }));
  try {
    await serve.waitFor(/Dashboard: (\S+)/);
    assert.ok(!serve.stderr().includes(token), serve.stderr());
    assert.match(serve.stderr(), /Dashboard: http:\/\/127\.0\.0\.1:\d+\/\?token=<the value of MCP_LENS_TOKEN>/);
  } finally {
    await serve.stop('SIGTERM');
  }
  assert.ok(!serve.stderr().includes(token), 'nor on the way out');
});

test('a generated token is printed in the dashboard link, and is the one in .mcp-lens/token', async () => {
  const serve = startCli(serveArgs, cliEnv(ws));
  try {
    const m = await serve.waitFor(/Dashboard: \S+\?token=([A-Za-z0-9_-]+)/);
    assert.equal(m[1], readFileSync(ws.path('.mcp-lens/token'), 'utf8').trim());
  } finally {
    await serve.stop('SIGTERM');
  }
});
