// The team's configuration, policy and scopes (core/team/): pure, table-driven.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTeamConfig } from '../../server/src/core/team/teamConfig';
import { globMatches, policyFor } from '../../server/src/core/team/policy';
import { groupsOf, scopeForMessage, scopeForTool, scopesOf } from '../../server/src/core/team/scopes';
import { listenProblem } from '../../server/src/cli/serveTeam';

const BASE = { resource: 'https://lens.example.com/mcp', signIn: { issuer: 'https://idp.example.com' } };

test('team config: defaults, and every problem named with where it is', () => {
  const { config, problems } = parseTeamConfig(BASE);
  assert.deepEqual(problems, []);
  assert.equal(config!.signIn.audience, BASE.resource, 'the audience is the resource by default');
  assert.equal(config!.signIn.groupsClaim, 'groups');
  assert.equal(config!.signIn.tokens, 'jwt');
  assert.equal(config!.audit.arguments, false, 'argument values are not kept unless asked');
  const bad = parseTeamConfig({
    resource: 'http://lens.example.com/mcp',
    signIn: { issuer: 'https://idp.example.com', tokens: 'introspection', groupClaim: 'x' },
    servers: { memory: { groups: 'eng', shared: 'yes' } },
  });
  assert.equal(bad.config, undefined);
  const paths = bad.problems.map((p) => p.path).sort();
  assert.deepEqual(paths, [
    'resource',
    'servers.memory.groups',
    'servers.memory.shared',
    'signIn.groupClaim',
    'signIn.introspection',
  ]);
  assert.match(bad.problems.find((p) => p.path === 'resource')!.message, /https/);
  assert.deepEqual(
    parseTeamConfig({ ...BASE, resource: 'http://127.0.0.1:8080/mcp' }).problems,
    [],
    'loopback http is fine',
  );
});

test('policy: servers by group, tool rules narrow, servers not named are seen by no one', () => {
  const { config } = parseTeamConfig({
    ...BASE,
    admins: ['lens-admins'],
    servers: {
      memory: { groups: ['*'] },
      github: { groups: ['eng'], tools: { 'delete_*': ['lens-admins'] } },
    },
  });
  const as = (...groups: string[]) => policyFor(config!, () => groups);
  assert.equal(as().seesServer('memory'), true, '* is everyone signed in');
  assert.equal(as().seesServer('github'), false);
  assert.equal(as().seesServer('unnamed'), false);
  assert.equal(as('eng').seesTool('github', 'create_issue'), true);
  assert.equal(as('eng').seesTool('github', 'delete_repo'), false);
  assert.equal(as('eng', 'lens-admins').seesTool('github', 'delete_repo'), true);
  assert.equal(as('lens-admins').seesTool('github', 'delete_repo'), false, 'the server rule applies first');
  assert.equal(as('lens-admins').isAdmin(), true);
  assert.equal(as('eng').isAdmin(), false);
});

test('globs: * matches any run, the rest is literal', () => {
  const cases: [string, string, boolean][] = [
    ['delete_*', 'delete_repo', true],
    ['delete_*', 'undelete_repo', false],
    ['*_repo', 'delete_repo', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['exact', 'exact', true],
    ['exact', 'exactly', false],
    ['a.b', 'aXb', false],
  ];
  for (const [p, n, want] of cases) assert.equal(globMatches(p, n), want, `${p} ~ ${n}`);
});

test('scopes per meta-tool and per request', () => {
  assert.equal(scopeForTool('find_tools'), 'mcp-lens:search');
  assert.equal(scopeForTool('get_tool_schema'), 'mcp-lens:search');
  assert.equal(scopeForTool('list_servers'), 'mcp-lens:search');
  assert.equal(scopeForTool('call_tool'), 'mcp-lens:call');
  assert.equal(scopeForTool('memory_read_graph'), 'mcp-lens:call', 'a tool exposed directly is a call');
  assert.equal(scopeForTool('run_code'), 'mcp-lens:code');
  assert.equal(scopeForMessage({ method: 'tools/list' }), undefined);
  assert.equal(scopeForMessage({ method: 'resources/read', params: {} }), 'mcp-lens:call');
  assert.deepEqual([...scopesOf({ scope: 'a b', scp: ['c'] })].sort(), ['a', 'b', 'c']);
  assert.deepEqual(groupsOf({ roles: 'x, y' }, 'roles'), ['x', 'y']);
  assert.deepEqual(groupsOf({ groups: ['x', 3] }, 'groups'), ['x']);
});

test('listening anywhere but loopback needs sign-in and TLS (or a TLS proxy)', () => {
  const o = { host: '0.0.0.0', team: false, tls: false, behindTlsProxy: false };
  assert.equal(listenProblem({ ...o, host: '127.0.0.1' }), undefined);
  assert.match(listenProblem(o)!, /--team/);
  assert.match(listenProblem({ ...o, team: true })!, /TLS/);
  assert.equal(listenProblem({ ...o, team: true, tls: true }), undefined);
  assert.equal(listenProblem({ ...o, team: true, behindTlsProxy: true }), undefined);
});
