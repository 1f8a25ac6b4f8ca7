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
  return {
    ...base,
    name,
    source: { kind, file: `/ws/${kind}`, path: `servers.${name}` },
    fingerprint: fingerprintServer(base),
  };
}

function loaded(servers: ServerConfig[]): LoadedConfig {
  return {
    servers,
    disabled: [],
    problems: [],
    inputs: [],
    missingInputs: [],
    include: ['a_*'],
    exclude: ['*_delete'],
    files: [],
    folders: [],
  };
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
  assert.deepEqual(a.filters, [{ include: ['a_*'], exclude: ['*_delete'] }]);
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

test('--trust and a named file approve the definitions there at start, not what is added or changed while serving', () => {
  const start = admit(config, { approvals: {}, trusted: true, autoApprove: true });
  assert.deepEqual(start.running.map((s) => s.name).sort(), ['approved', 'changed', 'desktop', 'named']);
  const added = server('added', 'cli-config');
  const renamedArgs = { ...named, args: ['other.mjs'], fingerprint: 'changed-fingerprint' };
  const later = loaded([approved, changed, renamedArgs, desktop, added, server('workspaceAdded', 'vscode-mcp-json')]);
  const a = admit(later, { approvals: {}, trusted: true, autoApprove: true, approvedAtStart: start.approvedAtStart });
  assert.deepEqual(
    a.running.map((s) => s.name),
    ['approved', 'changed', 'desktop'],
  );
  assert.deepEqual(
    a.held.map((h) => [h.config.name, h.reason]),
    [
      ['named', 'awaiting-approval'],
      ['added', 'awaiting-approval'],
      ['workspaceAdded', 'awaiting-approval'],
    ],
  );
  assert.deepEqual(a.approvedAtStart, start.approvedAtStart, 'what start approved stays frozen');
  // The user's own approval of exactly that definition starts it.
  const ok = admit(later, {
    approvals: { added: added.fingerprint },
    trusted: true,
    autoApprove: true,
    approvedAtStart: start.approvedAtStart,
  });
  assert.ok(ok.running.some((s) => s.name === 'added'));
  // Without --trust, a named file alone works the same way.
  const named0 = admit(loaded([named]), { approvals: {}, trusted: true, autoApprove: false });
  const named1 = admit(loaded([named, added]), {
    approvals: {},
    trusted: true,
    autoApprove: false,
    approvedAtStart: named0.approvedAtStart,
  });
  assert.deepEqual([named1.running.map((s) => s.name), named1.held.map((h) => h.config.name)], [['named'], ['added']]);
});

function withFilter(include: string[], exclude: string[]): LoadedConfig {
  return { ...loaded([]), include, exclude };
}

test('a tool filter that would show more tools waits for approval; the one accepted stays in force beside it', () => {
  const start = admit(withFilter([], ['*/delete_*', 'fs/move_file']), {
    approvals: {},
    trusted: true,
    autoApprove: false,
  });
  assert.equal(start.pendingFilter, undefined, 'the first admission accepts what it finds');
  const grants = { approvals: {}, trusted: true, autoApprove: false, acceptedFilter: start.acceptedFilter };

  // One exclude pattern removed, another added: the addition applies, the removal waits.
  const shorter = admit(withFilter([], ['*/delete_*', 'fs/write_file']), grants);
  assert.deepEqual(shorter.pendingFilter?.changes, [
    'exclude pattern "fs/move_file" removed: the tools it hid can be found and called',
  ]);
  assert.deepEqual(shorter.filters, [
    { include: [], exclude: ['*/delete_*', 'fs/move_file'] },
    { include: [], exclude: ['*/delete_*', 'fs/write_file'] },
  ]);
  assert.deepEqual(shorter.acceptedFilter, start.acceptedFilter, 'nothing accepted until approved');
  // Approving exactly that value accepts it.
  const approved = admit(withFilter([], ['*/delete_*', 'fs/write_file']), {
    ...grants,
    approvals: { 'mcpLens.toolFilter': shorter.pendingFilter!.value },
  });
  assert.equal(approved.pendingFilter, undefined);
  assert.deepEqual(approved.filters, [{ include: [], exclude: ['*/delete_*', 'fs/write_file'] }]);

  // A longer exclude applies at once and becomes what is accepted.
  const longer = admit(withFilter([], ['*/delete_*', 'fs/move_file', 'fs/write_file']), grants);
  assert.equal(longer.pendingFilter, undefined);
  assert.deepEqual(longer.acceptedFilter, { include: [], exclude: ['*/delete_*', 'fs/move_file', 'fs/write_file'] });
});

test("the editor's user level applies as it is; only the workspace's files need approval to show more", () => {
  const levels = (user: string[], workspace: string[]) => ({
    user: { exclude: user },
    workspace: { exclude: workspace },
  });
  const config0 = withFilter([], []);
  const start = admit(config0, { approvals: {}, trusted: true, autoApprove: false }, levels(['a/*'], ['b/*']));
  assert.deepEqual(start.filters, [{ include: [], exclude: ['a/*', 'b/*'] }]);
  const grants = { approvals: {}, trusted: true, autoApprove: false, acceptedFilter: start.acceptedFilter };
  const userDrops = admit(config0, grants, levels([], ['b/*']));
  assert.equal(userDrops.pendingFilter, undefined, "the user's own settings are the user's hand");
  assert.deepEqual(userDrops.filters, [{ include: [], exclude: ['b/*'] }]);
  const workspaceDrops = admit(config0, grants, levels(['a/*'], []));
  assert.match(workspaceDrops.pendingFilter?.changes.join() ?? '', /"b\/\*" removed/);
  // A workspace include replacing the user's, or emptied, is judged the same way.
  const inc = (user: string[] | undefined, workspace: string[] | undefined) => ({
    user: user ? { include: user } : {},
    workspace: workspace ? { include: workspace } : {},
  });
  const narrowed = admit(config0, { ...grants, acceptedFilter: {} }, inc(undefined, ['gh/*']));
  assert.equal(narrowed.pendingFilter, undefined, 'from every tool to a list narrows');
  const wider = admit(config0, { ...grants, acceptedFilter: { include: ['gh/*'] } }, inc(['gh/*'], []));
  assert.deepEqual(wider.pendingFilter?.changes, [
    'include emptied: every tool of every server can be found and called',
  ]);
});
