// `oauth` on a remote server entry (pure): the resolved client, exact problem texts, secrets
// through variables only, the fingerprint covering the client, the approval prompt's lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig, formatProblem, type ConfigFileText } from '../../server/src/core/config/resolve';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import { approvalLines, describeServer } from '../../server/src/core/config/describe';
import type { LoadedConfig, RemoteServerConfig } from '../../server/src/core/config/types';

const WS = '/work/ws';
const VSC = `${WS}/.vscode/mcp.json`;

function run(
  entry: string,
  over: { env?: Record<string, string>; inputs?: Record<string, string> } = {},
): LoadedConfig {
  const file: ConfigFileText = { path: VSC, kind: 'vscode-mcp-json', text: `{"servers": {"remote": ${entry}}}` };
  return resolveConfig([file], {
    workspaceFolder: WS,
    userHome: '/home/u',
    env: over.env ?? {},
    inputs: over.inputs ?? {},
    settings: { ...DEFAULT_SETTINGS, importFrom: ['vscode'] },
    settingsFile: `${WS}/.vscode/settings.json`,
    readEnvFile: () => undefined,
  });
}
const problems = (r: LoadedConfig) => r.problems.map((p) => `${p.severity} ${formatProblem(p, WS)}`);
const remote = (r: LoadedConfig) => r.servers[0] as RemoteServerConfig;

test('a pre-registered client: id, secret from an input, scopes; the secret never shown', () => {
  const r = run(
    '{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "lens-app", "clientSecret": "${input:app-secret}", "scopes": ["read", "write"]}}',
    {
      inputs: { 'app-secret': 's3cret-value' },
    },
  );
  assert.deepEqual(problems(r), []);
  const s = remote(r);
  assert.deepEqual(s.oauth, { clientId: 'lens-app', clientSecret: 's3cret-value', scopes: ['read', 'write'] });
  assert.deepEqual(s.shown?.oauth, { clientId: 'lens-app', hasSecret: true, scopes: ['read', 'write'] });
  const lines = approvalLines(s);
  assert.ok(lines.includes('OAuth client id: "lens-app" (with a client secret)'), lines.join('\n'));
  assert.ok(lines.includes('OAuth scopes: read write'));
  assert.ok(!lines.join('\n').includes('s3cret-value'));
  assert.ok(!describeServer(s).includes('s3cret-value'));
});

test('the fingerprint covers the client: a changed id, secret or scope needs a fresh approval; no oauth leaves it as it was', () => {
  const fp = (entry: string, inputs: Record<string, string> = { k: 'one' }) =>
    remote(run(entry, { inputs })).fingerprint;
  const base = '{"url": "https://mcp.example.com/mcp"}';
  const withId = '{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "a"}}';
  assert.notEqual(fp(base), fp(withId));
  assert.notEqual(fp(withId), fp('{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "b"}}'));
  const secret = '{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "a", "clientSecret": "${input:k}"}}';
  assert.notEqual(fp(secret), fp(secret, { k: 'two' }));
  assert.notEqual(
    fp(withId),
    fp('{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "a", "scopes": ["x"]}}'),
  );
  // Without `oauth` the fingerprint is the one approvals recorded before this field existed.
  assert.equal(fp(base), fp('{"type": "http", "url": "https://mcp.example.com/mcp", "headers": {}}'));
});

test('bad oauth entries disable the server, with exact problem texts', async (t) => {
  const cases: [string, string, string[]][] = [
    [
      'not an object',
      '"lens-app"',
      ['error .vscode/mcp.json: servers.remote.oauth: "oauth" must be an object with "clientId"'],
    ],
    [
      'no clientId',
      '{"scopes": ["a"]}',
      ['error .vscode/mcp.json: servers.remote.oauth.clientId: "oauth.clientId" must be a non-empty string'],
    ],
    [
      'secret not a string',
      '{"clientId": "a", "clientSecret": 5}',
      ['error .vscode/mcp.json: servers.remote.oauth.clientSecret: "oauth.clientSecret" must be a string'],
    ],
    [
      'scopes with a space',
      '{"clientId": "a", "scopes": ["read write"]}',
      [
        'error .vscode/mcp.json: servers.remote.oauth.scopes: "oauth.scopes" must be an array of scope names (strings without spaces)',
      ],
    ],
  ];
  for (const [name, oauth, expected] of cases) {
    await t.test(name, () => {
      const r = run(`{"url": "https://mcp.example.com/mcp", "oauth": ${oauth}}`);
      assert.deepEqual(problems(r), expected);
      assert.equal(r.servers.length, 0);
      assert.equal(r.disabled[0]?.name, 'remote');
    });
  }
});

test('warnings that do not disable: a secret written in the file, an unknown key, oauth on a stdio server', () => {
  const r = run(
    '{"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "a", "clientSecret": "literal", "redirect": "x"}}',
  );
  assert.deepEqual(problems(r), [
    'warning .vscode/mcp.json: servers.remote.oauth.redirect: unknown key "redirect" in "oauth" (expected "clientId", "clientSecret" or "scopes"); ignored',
    'warning .vscode/mcp.json: servers.remote.oauth.clientSecret: "oauth.clientSecret" is written in the file; use ${input:…} or ${env:…} so the secret stays out of it',
  ]);
  assert.equal(remote(r).oauth?.clientSecret, 'literal');
  const stdio = run('{"command": "npx", "oauth": {"clientId": "a"}}');
  assert.deepEqual(problems(stdio), [
    'warning .vscode/mcp.json: servers.remote.oauth: "oauth" applies to http and sse servers only; ignored',
  ]);
  assert.equal(stdio.servers.length, 1);
});
