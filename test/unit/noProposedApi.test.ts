// The extension must run on stable VS Code ^1.101 with no proposed API: no enabledApiProposals
// in the manifest and none of the proposed-only identifiers in client/src. Type-checking
// against @types/vscode 1.101.0 (tsc) covers the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Identifiers that exist only in vscode.proposed.*.d.ts (MCP, chat and lm proposals). */
const PROPOSED_ONLY = [
  'enabledApiProposals',
  'McpToolAvailability',
  'McpServerMetadata',
  'registerChatParticipantDetectionProvider',
  'LanguageModelChatProvider2',
  'registerMcpConfigurationProvider',
  'startMcpGateway',
  'onDidChangeChatRequestTools',
  'mcpServerDefinitions',
  'ChatResponseProgressPart2',
  'lm.registerChatModelProvider',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('the manifest enables no proposed API and targets VS Code ^1.101.0', () => {
  assert.equal(pkg.enabledApiProposals, undefined);
  assert.equal(pkg.engines.vscode, '^1.101.0');
  assert.equal(pkg.devDependencies['@types/vscode'], '1.101.0');
  const installed = JSON.parse(readFileSync(join(root, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8'));
  assert.equal(installed.version, '1.101.0');
});

test('client/src uses no proposed-only identifier', () => {
  const sources = files(join(root, 'client', 'src'));
  assert.ok(sources.length > 5, 'client sources found');
  const offenders: string[] = [];
  for (const f of sources) {
    const text = readFileSync(f, 'utf8');
    for (const id of PROPOSED_ONLY) if (text.includes(id)) offenders.push(`${f}: ${id}`);
  }
  assert.deepEqual(offenders, []);
});

test('no vscode.proposed.*.d.ts is part of the build', () => {
  for (const config of ['tsconfig.json', 'tsconfig.base.json', 'client/tsconfig.json', 'test/tsconfig.json']) {
    assert.doesNotMatch(readFileSync(join(root, config), 'utf8'), /vscode\.proposed/, config);
  }
  const dts = files(join(root, 'client')).filter((f) => /vscode\.proposed\./.test(f));
  assert.deepEqual(dts, []);
});
