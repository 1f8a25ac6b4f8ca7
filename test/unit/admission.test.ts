// What of a loaded configuration takes effect (app/admission.ts): the reconciler runs exactly
// `running`, shows `held` with its reason, and the catalog applies the filter admitted here.
// Each server's decision itself is core/config/approval.ts's (configApproval.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admit } from '../../server/src/app/admission';
import { fingerprintServer } from '../../server/src/core/config/fingerprint';
import type { LoadedConfig, ServerConfig } from '../../server/src/core/config/types';
import type { ConfigSourceKind } from '../../protocol/model';

function server(name: string, kind: ConfigSourceKind): ServerConfig {
  const base = { type: 'stdio' as const, command: 'node', args: [`${name}.mjs`], env: {} };
  return { ...base, name, source: { kind, file: `/ws/${kind}`, path: `servers.${name}` }, fingerprint: fingerprintServer(base) };
}

function loaded(servers: ServerConfig[]): LoadedConfig {
  return { servers, disabled: [], problems: [], inputs: [], missingInputs: [], include: ['a_*'], exclude: ['*_delete'], files: [], folders: [] };
}

const approved = server('approved', 'vscode-mcp-json');
const changed = server('changed', 'mcp-json');
const named = server('named', 'cli-config');
const desktop = server('desktop', 'claude-desktop');
const config = loaded([approved, changed, named, desktop]);
const approvals = { approved: approved.fingerprint, changed: 'an older fingerprint' };

test('in a trusted workspace: approved definitions and a named file run, new or changed ones wait for approval', () => {
  const a = admit(config, { approvals, trusted: true, autoApprove: false });
  assert.deepEqual(
    a.running.map((s) => s.name),
    ['approved', 'named'],
  );
  assert.deepEqual(
    a.held.map((h) => [h.config.name, h.reason]),
    [
      ['changed', 'awaiting-approval'],
      ['desktop', 'awaiting-approval'],
    ],
  );
  assert.deepEqual([a.include, a.exclude], [['a_*'], ['*_delete']]);
});

test("in an untrusted workspace nothing from the workspace runs, approved or not; the user's own files follow their own rules", () => {
  const a = admit(config, { approvals, trusted: false, autoApprove: false });
  assert.deepEqual(
    a.running.map((s) => s.name),
    ['named'],
  );
  assert.deepEqual(
    a.held.map((h) => [h.config.name, h.reason]),
    [
      ['approved', 'untrusted'],
      ['changed', 'untrusted'],
      ['desktop', 'awaiting-approval'],
    ],
  );
  // --trust approves; it does not trust.
  const trust = admit(config, { approvals: {}, trusted: false, autoApprove: true });
  assert.deepEqual(
    trust.running.map((s) => s.name),
    ['named', 'desktop'],
  );
});
