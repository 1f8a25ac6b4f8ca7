/**
 * The consent rules without a server: which tools each level asks about (core/consent.ts), that
 * only an accepted form with a known choice allows anything, the question's text, that a
 * workspace can only raise the level (protocol/settings.ts consentOfAllLevels), that "always"
 * holds for one definition (definitionFingerprint), the consent file's checks
 * (adapters/consentFile.ts) and exposure found's list (gateway/foundTools.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consentOfAllLevels } from '../../protocol/settings';
import { asksConsent, consentAnswerOf, consentQuestion, consentRefusal } from '../../server/src/core/consent';
import { definitionFingerprint } from '../../server/src/core/usage/toolFingerprint';
import { ConsentFile } from '../../server/src/adapters/consentFile';
import { FoundTools } from '../../server/src/gateway/foundTools';

test('asksConsent: destructive asks for destructiveHint only; notReadOnly for all but readOnlyHint; off never', () => {
  const destructive = { destructiveHint: true };
  const readOnly = { readOnlyHint: true, destructiveHint: true };
  assert.equal(asksConsent(destructive, 'destructive'), true);
  assert.equal(asksConsent(undefined, 'destructive'), false);
  assert.equal(asksConsent(readOnly, 'destructive'), false, 'read-only wins over a contradictory hint');
  assert.equal(asksConsent(undefined, 'notReadOnly'), true, 'no annotations: may be destructive');
  assert.equal(asksConsent({ readOnlyHint: true }, 'notReadOnly'), false);
  assert.equal(asksConsent(destructive, 'off'), false);
});

test('consentAnswerOf: only an accepted form with "once" or "always" allows', () => {
  assert.equal(consentAnswerOf({ action: 'accept', content: { decision: 'once' } }), 'once');
  assert.equal(consentAnswerOf({ action: 'accept', content: { decision: 'always' } }), 'always');
  for (const r of [
    { action: 'accept', content: { decision: 'deny' } },
    { action: 'accept', content: { decision: 'ALWAYS' } },
    { action: 'accept' },
    { action: 'decline', content: { decision: 'always' } },
    { action: 'cancel' },
    null,
    'always',
  ])
    assert.equal(consentAnswerOf(r), 'deny', JSON.stringify(r));
});

test('the question names tool, title, server and arguments on one cleaned line each; the refusal carries no arguments', () => {
  const tool = {
    server: 'db',
    originalName: 'drop\u202etable\nx',
    title: 'Drop',
    annotations: { destructiveHint: true },
  };
  const q = consentQuestion(tool, { table: 'users', big: 'y'.repeat(5000) }) as { message: string };
  const [first, second] = q.message.split('\n');
  assert.match(first!, /MCP Lens: the agent wants to run "drop.?table x" \(Drop\) on server "db", which may change/);
  assert.doesNotMatch(q.message, /\u202e/);
  assert.match(second!, /^Arguments: \{"table":"users"/);
  assert.ok(second!.length < 700, 'arguments cut');
  const refusal = consentRefusal(tool, 'cannotAsk');
  assert.match(refusal, /did not run/);
  assert.match(refusal, /mcpLens\.consent/);
  assert.match(consentRefusal(tool, 'cannotAsk', undefined, 'db_drop_table'), /own tool "db_drop_table"/);
});

test('consentOfAllLevels: the strictest level counts; a workspace raises, never lowers; junk is the default', () => {
  assert.equal(consentOfAllLevels(undefined), 'destructive');
  assert.equal(consentOfAllLevels({ globalValue: 'off' }), 'off', "the user's own choice");
  assert.equal(consentOfAllLevels({ globalValue: 'notReadOnly', workspaceValue: 'off' }), 'notReadOnly');
  assert.equal(consentOfAllLevels({ workspaceValue: 'off' }), 'destructive', 'a workspace cannot turn it off');
  assert.equal(consentOfAllLevels({ globalValue: 'off', workspaceFolderValue: 'off' }), 'off');
  assert.equal(consentOfAllLevels({ globalValue: 'off' }, ['notReadOnly']), 'notReadOnly', "a folder's raises");
  assert.equal(consentOfAllLevels({ globalValue: 'off', workspaceValue: 'nope' }), 'destructive');
});

test('definitionFingerprint changes with what a person judges a tool by, and only that', () => {
  const tool = {
    title: 'Drop',
    description: 'Drops a table.',
    inputSchema: { type: 'object' },
    annotations: { destructiveHint: true },
  };
  const fp = definitionFingerprint(tool);
  assert.equal(definitionFingerprint({ ...tool }), fp);
  assert.notEqual(definitionFingerprint({ ...tool, description: 'Drops a table and its backups.' }), fp);
  assert.notEqual(definitionFingerprint({ ...tool, annotations: { destructiveHint: false } }), fp);
  assert.notEqual(definitionFingerprint({ ...tool, title: 'Tidy' }), fp);
  assert.notEqual(definitionFingerprint({ ...tool, outputSchema: { type: 'object' } }), fp);
});

test('ConsentFile: per principal; a file that is not ours, or entries that do not check, allow nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-consent-file-'));
  try {
    const warnings: string[] = [];
    const file = new ConsentFile(join(dir, 'consent.json'), (m) => warnings.push(m));
    const entry = {
      principal: 'workspace',
      key: 'db/drop',
      server: 'db',
      tool: 'drop',
      fingerprint: '0123456789abcdef',
      at: 1,
    };
    file.add(entry);
    file.add({ ...entry, principal: 'person:x' });
    assert.equal(file.read().length, 2);
    assert.equal(file.remove('workspace', 'db/drop'), true);
    assert.deepEqual(
      file.read().map((e) => e.principal),
      ['person:x'],
    );
    assert.equal(file.remove('workspace', 'db/drop'), false);
    // A key that does not match its server and tool, or a fingerprint of another shape, is dropped.
    const bad = [
      { ...entry, key: 'other/drop' },
      { ...entry, fingerprint: 'x' },
      { ...entry, principal: '' },
    ];
    writeFileSync(file.file, JSON.stringify({ format: 1, allowed: [...bad, entry] }), { mode: 0o600 });
    assert.deepEqual(new ConsentFile(file.file, () => undefined).read(), [entry]);
    // Readable by others: not ours.
    chmodSync(file.file, 0o644);
    assert.deepEqual(new ConsentFile(file.file, (m) => warnings.push(m)).read(), []);
    assert.match(warnings.at(-1) ?? '', /every tool is asked about again/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('FoundTools: appends in order, a listed tool moves nothing, past the bound the least recently used leaves', () => {
  const found = new FoundTools();
  assert.equal(found.use('a', 2), true);
  assert.equal(found.use('b', 2), true);
  assert.equal(found.use('a', 2), false, 'listed already: no change');
  assert.deepEqual(found.keys(2), ['a', 'b']);
  assert.equal(found.use('c', 2), true);
  assert.deepEqual(found.keys(2), ['a', 'c'], 'b was used least recently');
  assert.deepEqual(found.keys(1), ['c'], 'a lowered bound trims');
});
