/**
 * A 1-character MCP_LENS_TOKEN was accepted as the gateway's bearer token. Tokens weaker
 * than 128 bits are now refused before anything starts, with a message that says why and how
 * to make a good one (and never repeats the token).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { tokenProblem } from '../../server/src/gateway/httpGuards';
import { EVERYTHING, cliEnv, hostileWorkspace, mcpJson, runCli, strongToken } from './hostileWorkspace';

const ws = hostileWorkspace({ '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }) });
after(() => ws.close());

test('serve --http refuses a 1-character MCP_LENS_TOKEN and starts nothing', async () => {
  const run = await runCli(
    ['serve', '--http', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')],
    cliEnv(ws, { MCP_LENS_TOKEN: 'x' }),
    60_000,
  );
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stderr,
    /MCP_LENS_TOKEN is too weak \(1 characters, about 6 bits; at least 128 random bits are needed/,
  );
  assert.doesNotMatch(run.stderr, /listening/);
});

test('the strength rule: 128 bits by alphabet and length, and no repeated-character tokens', () => {
  assert.equal(tokenProblem(strongToken()), undefined, '64 hex digits');
  assert.equal(tokenProblem(strongToken().slice(0, 32)), undefined, '32 hex digits = 128 bits');
  assert.match(tokenProblem(strongToken().slice(0, 31)) ?? '', /about 124 bits/);
  assert.equal(tokenProblem('Zm9vYmFyYmF6cXV4cXV1eHh5'), undefined, '24 base64 characters = 144 bits');
  assert.match(tokenProblem('a'.repeat(64)) ?? '', /only 1 distinct characters/);
  assert.match(tokenProblem('hunter2') ?? '', /too weak/);
  assert.ok(!(tokenProblem('hunter2') ?? '').includes('hunter2'), 'the message never repeats the token');
});
