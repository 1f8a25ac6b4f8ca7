/**
 * An `envFile` path built from `${env:MCP_LENS_TOKEN}` put the secret's value, before any
 * approval, into the "env file not found" error: on stderr and in list_servers. Messages now
 * name the variable (`${env:MCP_LENS_TOKEN}/.env`), never its value; the same holds for a
 * command or cwd built from a variable.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, ROOT, cliEnv, hostileWorkspace, mcpJson, strongToken } from './hostileWorkspace';

const SECRET = strongToken();
const OTHER = `other-secret-${strongToken().slice(0, 12)}`;
const ws = hostileWorkspace({
  '.vscode/mcp.json': mcpJson({
    leak: { command: 'node', args: ['x.js'], envFile: '${env:MCP_LENS_TOKEN}/.env' },
    leak2: { command: '${env:B03_OTHER}/bin/server', cwd: '${env:B03_OTHER}' },
  }),
});
after(() => ws.close());

test('neither stderr nor list_servers carries a value that came from a variable', async () => {
  const env = cliEnv(ws, { MCP_LENS_TOKEN: SECRET, B03_OTHER: OTHER, MCP_LENS_LOG: 'debug' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, 'serve', '--workspace', ws.dir, '--trust'],
    cwd: ROOT,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const client = new Client({ name: 'b03', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: 'list_servers', arguments: {} })) as CallToolResult;
    const listed = JSON.stringify(r);
    assert.match(listed, /env file not found: \$\{env:MCP_LENS_TOKEN\}\/\.env/, listed);
    for (const secret of [SECRET, OTHER]) {
      assert.ok(!listed.includes(secret), `list_servers holds a secret: ${listed}`);
      assert.ok(!stderr.includes(secret), `stderr holds a secret:\n${stderr}`);
    }
  } finally {
    await client.close();
  }
  assert.match(stderr, /\$\{env:MCP_LENS_TOKEN\}\/\.env/, 'stderr names the variable');
});
