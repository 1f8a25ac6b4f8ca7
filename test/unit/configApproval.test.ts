// Server approval (security): trust, fingerprints, source policy; plus the fingerprint and the
// secret-free summary the approval prompt shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainApproval, type ApprovalPolicy } from '../../server/src/core/config/approval';
import { fingerprintServer, type FingerprintInput } from '../../server/src/core/config/fingerprint';
import { describeServer } from '../../server/src/core/config/describe';
import { resolveConfig } from '../../server/src/core/config/resolve';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { ServerConfig } from '../../server/src/core/config/types';
import type { ConfigSourceKind } from '../../protocol/model';

function stdio(kind: ConfigSourceKind, name = 'gh'): ServerConfig {
  const base = { type: 'stdio' as const, command: 'npx', args: ['gh'], env: { T: 'secret' } };
  return {
    ...base,
    name,
    source: { kind, file: `/f/${kind}`, path: `servers.${name}` },
    fingerprint: fingerprintServer(base),
  };
}

test('approval decisions', async (t) => {
  const fp = stdio('vscode-mcp-json').fingerprint;
  type Case = { kind: ConfigSourceKind; policy: ApprovalPolicy; want: string; reason: string };
  const cases: Case[] = [
    // Workspace sources in an untrusted workspace: never, whatever else holds.
    ...(['vscode-mcp-json', 'mcp-json', 'cursor', 'settings'] as const).flatMap((kind): Case[] => [
      {
        kind,
        policy: { trusted: false, approvals: { gh: fp } },
        want: 'untrusted',
        reason: 'workspace is not trusted; servers from workspace configuration do not start',
      },
      {
        kind,
        policy: { trusted: false, approvals: {}, autoApprove: true },
        want: 'untrusted',
        reason: 'workspace is not trusted; servers from workspace configuration do not start',
      },
      { kind, policy: { trusted: true, approvals: {} }, want: 'needs-approval', reason: 'not approved yet' },
      {
        kind,
        policy: { trusted: true, approvals: { gh: 'ffffffffffffffff' } },
        want: 'needs-approval',
        reason: 'definition changed since it was approved',
      },
      { kind, policy: { trusted: true, approvals: { gh: fp } }, want: 'start', reason: 'approved' },
      { kind, policy: { trusted: true, approvals: { other: fp } }, want: 'needs-approval', reason: 'not approved yet' },
      {
        kind,
        policy: { trusted: true, approvals: {}, autoApprove: true },
        want: 'start',
        reason: 'approved for all servers (--trust)',
      },
    ]),
    // Claude Desktop: the user's own file, so trust does not gate it, but it needs approval.
    {
      kind: 'claude-desktop',
      policy: { trusted: false, approvals: {} },
      want: 'needs-approval',
      reason: 'not approved yet',
    },
    {
      kind: 'claude-desktop',
      policy: { trusted: true, approvals: {} },
      want: 'needs-approval',
      reason: 'not approved yet',
    },
    { kind: 'claude-desktop', policy: { trusted: false, approvals: { gh: fp } }, want: 'start', reason: 'approved' },
    {
      kind: 'claude-desktop',
      policy: { trusted: true, approvals: { gh: 'x' } },
      want: 'needs-approval',
      reason: 'definition changed since it was approved',
    },
    // --config: naming the file approves it.
    {
      kind: 'cli-config',
      policy: { trusted: true, approvals: {} },
      want: 'start',
      reason: 'approved by naming the config file',
    },
    {
      kind: 'cli-config',
      policy: { trusted: false, approvals: {} },
      want: 'start',
      reason: 'approved by naming the config file',
    },
    // Per-source policy overrides.
    {
      kind: 'cli-config',
      policy: {
        trusted: true,
        approvals: {},
        sources: { 'cli-config': { fromWorkspace: false, approvedByNaming: false } },
      },
      want: 'needs-approval',
      reason: 'not approved yet',
    },
    {
      kind: 'claude-desktop',
      policy: {
        trusted: false,
        approvals: {},
        sources: { 'claude-desktop': { fromWorkspace: true, approvedByNaming: false } },
      },
      want: 'untrusted',
      reason: 'workspace is not trusted; servers from workspace configuration do not start',
    },
  ];
  for (const c of cases) {
    await t.test(`${c.kind} ${JSON.stringify(c.policy)}`, () => {
      const s = stdio(c.kind);
      assert.equal(explainApproval(s, c.policy).decision, c.want);
      assert.deepEqual(explainApproval(s, c.policy), { name: 'gh', decision: c.want, reason: c.reason });
    });
  }
});

test('approval map keys are own properties only', () => {
  const s = stdio('vscode-mcp-json', 'constructor');
  assert.equal(explainApproval(s, { trusted: true, approvals: {} }).decision, 'needs-approval');
  const proto = stdio('vscode-mcp-json', '__proto__');
  assert.equal(explainApproval(proto, { trusted: true, approvals: JSON.parse('{}') }).decision, 'needs-approval');
});

test('explainApproval over a list keeps order and names', () => {
  const out = [stdio('cli-config', 'a'), stdio('mcp-json', 'b')].map((s) =>
    explainApproval(s, { trusted: true, approvals: {} }),
  );
  assert.deepEqual(
    out.map((o) => [o.name, o.decision]),
    [
      ['a', 'start'],
      ['b', 'needs-approval'],
    ],
  );
});

test('fingerprint: 16 hex chars, stable, independent of key order', () => {
  const a = fingerprintServer({ type: 'stdio', command: 'c', args: ['1'], env: { A: '1', B: '2' } });
  const b = fingerprintServer({ type: 'stdio', command: 'c', args: ['1'], env: { B: '2', A: '1' } });
  assert.match(a, /^[0-9a-f]{16}$/);
  assert.equal(a, b);
  const h1 = fingerprintServer({ type: 'http', url: 'https://x', headers: { A: '1', B: '2' } });
  assert.equal(h1, fingerprintServer({ type: 'http', url: 'https://x', headers: { B: '2', A: '1' } }));
});

test('fingerprint changes with anything that decides what runs or where it connects', async (t) => {
  const base: FingerprintInput = { type: 'stdio', command: 'c', args: ['a', 'b'], env: { TOKEN: 'v1' }, cwd: '/w' };
  const remote: FingerprintInput = { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer 1' } };
  const cases: [string, FingerprintInput, FingerprintInput][] = [
    ['env value', base, { ...base, env: { TOKEN: 'v2' } }],
    ['env name', base, { ...base, env: { TOKEN2: 'v1' } }],
    ['env added', base, { ...base, env: { TOKEN: 'v1', X: '' } }],
    ['command', base, { ...base, command: 'd' }],
    ['args order', base, { ...base, args: ['b', 'a'] }],
    ['args split differently', base, { ...base, args: ['ab'] }],
    ['cwd', base, { ...base, cwd: '/v' }],
    ['cwd removed', base, (({ cwd: _cwd, ...rest }) => rest)(base)],
    ['env removal', base, { ...base, removeEnv: ['PATH'] }],
    ['url', remote, { ...remote, url: 'https://y/mcp' }],
    ['header value', remote, { ...remote, headers: { Authorization: 'Bearer 2' } }],
    ['header name', remote, { ...remote, headers: { Authorisation: 'Bearer 1' } }],
    ['http vs sse', remote, { ...remote, type: 'sse' }],
  ];
  for (const [what, a, b] of cases) {
    await t.test(what, () => assert.notEqual(fingerprintServer(a), fingerprintServer(b)));
  }
});

test('a changed env value in the config file needs re-approval', () => {
  const load = (token: string) =>
    resolveConfig(
      [
        {
          path: '/w/.mcp.json',
          kind: 'mcp-json',
          text: `{"mcpServers": {"gh": {"command": "x", "env": {"TOKEN": "${token}"}}}}`,
        },
      ],
      {
        workspaceFolder: '/w',
        userHome: '/h',
        env: {},
        inputs: {},
        settings: { ...DEFAULT_SETTINGS, importFrom: ['mcp-json'] },
        settingsFile: '/w/.vscode/settings.json',
        readEnvFile: () => undefined,
      },
    ).servers[0];
  const approved = load('one');
  const policy = { trusted: true, approvals: { gh: approved.fingerprint } };
  assert.equal(explainApproval(load('one'), policy).decision, 'start');
  assert.equal(explainApproval(load('two'), policy).decision, 'needs-approval');
});

test('describeServer: one line, no secrets', async (t) => {
  const src = { kind: 'mcp-json' as const, file: '/w/.mcp.json', path: 'mcpServers.s' };
  const cases: { cfg: ServerConfig; want: string; secrets: string[] }[] = [
    {
      cfg: {
        type: 'stdio',
        name: 's',
        source: src,
        fingerprint: '0',
        command: 'npx',
        args: ['-y', '@mcp/gh'],
        env: { GITHUB_TOKEN: 'ghp_secret1', A: 'value2' },
        cwd: '/w',
      },
      want: 'stdio: npx -y @mcp/gh (env: A, GITHUB_TOKEN; cwd: /w)',
      secrets: ['ghp_secret1', 'value2'],
    },
    {
      cfg: {
        type: 'stdio',
        name: 's',
        source: src,
        fingerprint: '0',
        command: '/opt/my server',
        args: ['--token', 'tok_abc', '--api-key=key_def', '--name', 'x y'],
        env: {},
      },
      want: 'stdio: "/opt/my server" --token *** --api-key=*** --name "x y"',
      secrets: ['tok_abc', 'key_def'],
    },
    {
      cfg: {
        type: 'stdio',
        name: 's',
        source: src,
        fingerprint: '0',
        command: 'srv',
        args: ['--db', 'postgres://u:pw_ghi@h/db', 'plain'],
        env: {},
        secretArgs: [1],
        removeEnv: ['HOME'],
      },
      want: 'stdio: srv --db *** plain (unset: HOME)',
      secrets: ['pw_ghi'],
    },
    {
      cfg: {
        type: 'http',
        name: 's',
        source: src,
        fingerprint: '0',
        url: 'https://user:pw_jkl@api.example.com/mcp?key=q_mno&v=1',
        headers: { Authorization: 'Bearer b_pqr', 'X-Org': 'o' },
      },
      want: 'http: https://api.example.com/mcp?key=***&v=*** (headers: Authorization, X-Org)',
      secrets: ['pw_jkl', 'q_mno', 'b_pqr', 'user'],
    },
    {
      cfg: { type: 'sse', name: 's', source: src, fingerprint: '0', url: 'http://127.0.0.1:3000/sse', headers: {} },
      want: 'sse: http://127.0.0.1:3000/sse',
      secrets: [],
    },
  ];
  for (const c of cases) {
    await t.test(c.want, () => {
      const line = describeServer(c.cfg);
      assert.equal(line, c.want);
      assert.ok(!line.includes('\n'));
      for (const s of c.secrets) assert.ok(!line.includes(s), `summary leaks ${s}`);
    });
  }
});

test('describeServer shows args that took in ${input:} or ${env:} values as written, never their values', () => {
  const s = resolveConfig(
    [
      {
        path: '/w/.mcp.json',
        kind: 'mcp-json',
        text: '{"mcpServers": {"s": {"command": "srv", "args": ["--db", "${input:dsn}", "--dir", "${workspaceFolder}", "${env:HOME_X}"]}}}',
      },
    ],
    {
      workspaceFolder: '/w',
      userHome: '/h',
      env: { HOME_X: 'envsecret' },
      inputs: { dsn: 'inputsecret' },
      settings: { ...DEFAULT_SETTINGS, importFrom: ['mcp-json'] },
      settingsFile: '/s',
      readEnvFile: () => undefined,
    },
  ).servers[0];
  assert.equal(describeServer(s), 'stdio: srv --db ${input:dsn} --dir /w ${env:HOME_X}');
});
