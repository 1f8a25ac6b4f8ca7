/**
 * The audit (issue 36, item 4): every tool call through a team's MCP Lens — call_tool, a tool
 * exposed directly, run_code's calls, and a call the person's view refused — is one AuditRecord
 * in the JSON Lines sink, with the person, the server and tool, an argument fingerprint and never
 * the values (unless the configuration asks), the outcome, the duration and the result's tokens;
 * `mcp-lens audit` reads it back by person, server, tool and time. People sign in through a real
 * OpenID provider with the SDK's client OAuth.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT } from '../fixtures/gatewayLens';
import type { AuditRecord } from '../../server/src/adapters/audit/auditSink';
import { JsonlAuditSink } from '../../server/src/adapters/audit/jsonlAuditSink';
import { argsFingerprint } from '../../server/src/core/team/auditFingerprint';
import { callAudit } from '../../server/src/gateway/callAudit';
import { personPrincipal } from '../../server/src/core/principal';
import { silentLogger } from '../../server/src/core/logger';
import { signedInClient, startTeamWorld, type TeamWorld } from './teamWorld';

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const SECRET = 'argument-value-never-kept-7f3a';
type Signed = Awaited<ReturnType<typeof signedInClient>>;

function records(file: string): AuditRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditRecord);
}

function auditCli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI, 'audit', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('team audit: every tool call is recorded', () => {
  let world: TeamWorld;
  let alice: Signed;
  before(async () => {
    world = await startTeamWorld(
      { everything: EVERYTHING },
      [
        { login: 'alice', groups: ['eng'], email: 'alice@example.com' },
        { login: 'bob', groups: ['ops'] },
      ],
      { servers: { everything: { groups: ['*'], tools: { 'get-env': ['ops'] } } } },
      { exposure: 'all' },
    );
    alice = await signedInClient(world.resource, 'alice');
  });
  after(async () => {
    await alice?.close();
    await world?.close();
  });

  test('call_tool, a direct call, run_code and a refused call: one record each, values never kept', async () => {
    const before = records(world.auditFile).length;
    const args = { message: SECRET };
    const viaMeta = await alice.client.callTool({
      name: 'call_tool',
      arguments: { tool_name: 'everything_echo', arguments: args },
    });
    assert.notEqual(viaMeta.isError, true, text(viaMeta));
    await alice.client.callTool({ name: 'everything_echo', arguments: args });
    const script = await alice.client.callTool({
      name: 'run_code',
      arguments: { code: `return await call_tool('everything_echo', ${JSON.stringify(args)});` },
    });
    assert.notEqual(script.isError, true, text(script));
    const hidden = await alice.client.callTool({
      name: 'call_tool',
      arguments: { tool_name: 'everything_get-env', arguments: {} },
    });
    assert.equal(hidden.isError, true);

    const added = records(world.auditFile).slice(before);
    assert.deepEqual(
      added.map((r) => [r.via, r.server, r.tool, r.outcome]),
      [
        ['call_tool', 'everything', 'echo', 'ok'],
        ['tools/call', 'everything', 'echo', 'ok'],
        ['run_code', 'everything', 'echo', 'ok'],
        ['call_tool', 'everything', 'get-env', 'refused'],
      ],
    );
    for (const r of added.slice(0, 3)) {
      assert.equal(r.principal, `person:${world.provider.issuer}#alice`);
      assert.equal(r.person, 'alice@example.com');
      assert.equal(r.argsFingerprint, argsFingerprint(args));
      assert.equal(r.args, undefined);
      assert.ok(r.resultTokens > 0 && r.durationMs >= 0);
      assert.equal(r.replica, 'test-replica');
      assert.ok(!Number.isNaN(Date.parse(r.at)));
    }
    assert.match(added[3]!.error ?? '', /Unknown tool/);
    assert.ok(!readFileSync(world.auditFile, 'utf8').includes(SECRET), 'argument values are not in the audit');
    assert.ok(!world.logged.join('\n').includes(SECRET), 'nor in the log');
  });

  test('mcp-lens audit: by person, server, tool and time, newest first; --json gives the records', () => {
    const all = auditCli('--team', world.teamFile, '--json');
    assert.equal(all.status, 0, all.stderr);
    const listed = all.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord);
    assert.ok(listed.length >= 4);
    assert.ok(listed[0]!.at >= listed[listed.length - 1]!.at, 'newest first');
    const byPerson = auditCli('--team', world.teamFile, '--person', 'alice@example.com', '--tool', 'get-env');
    assert.equal(byPerson.status, 0, byPerson.stderr);
    assert.match(byPerson.stdout, /alice@example\.com {2}call_tool {2}everything\/get-env {2}refused/);
    assert.equal(byPerson.stdout.trim().split('\n').length, 1);
    const nobody = auditCli('--team', world.teamFile, '--person', 'bob');
    assert.match(nobody.stdout, /No recorded call matches/);
    const future = auditCli('--file', world.auditFile, '--since', '2999-01-01T00:00:00Z', '--json');
    assert.equal(future.stdout, '');
    const limited = auditCli('--file', world.auditFile, '--server', 'everything', '--limit', '2', '--json');
    assert.equal(limited.stdout.trim().split('\n').length, 2);
    const bad = auditCli('--file', world.auditFile, '--since', 'yesterday');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /ISO 8601/);
  });
});

describe('the JSON Lines audit sink', () => {
  test('argument values only when the configuration asks; a torn last line is skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-audit-'));
    try {
      const file = join(dir, 'audit.jsonl');
      const sink = new JsonlAuditSink(file);
      const principal = personPrincipal({ issuer: 'https://idp.example', subject: 'dana', name: 'dana@example.com' });
      const lens = { findTool: () => ({ server: 's', originalName: 't' }) as never };
      const keep = callAudit({ sink, arguments: true, replica: 'r1' }, principal, lens, silentLogger);
      const result = { content: [{ type: 'text' as const, text: 'boom' }], isError: true };
      await keep.record({
        via: 'call_tool',
        name: 's_t',
        args: { b: 1, a: 2 },
        result,
        refused: false,
        startedAt: 1,
        resultTokens: 1,
      });
      appendFileSync(file, '{"at":"2026-01-01T00:00:00Z","princ');
      const [r] = await sink.query({ principal: 'dana' });
      assert.deepEqual(r!.args, { b: 1, a: 2 });
      assert.equal(r!.error, 'boom', 'with argument values kept, the error text is kept too');
      assert.equal(r!.argsFingerprint, argsFingerprint({ a: 2, b: 1 }), 'key order does not change the fingerprint');
      assert.equal((await sink.query({})).length, 1);
      await sink.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
