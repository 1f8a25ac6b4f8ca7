// The manifest declares every setting of McpLensSettings with its default, every command the
// extension registers, the MCP provider id and the marketplace fields vsce and the Marketplace need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, RESTRICTED_SETTINGS } from '../../protocol/settings';
import { settingsContribution } from '../../protocol/settingsManifest';
import { META_TOOL_NAMES } from '../../protocol/metaToolNames';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const props: Record<string, { default?: unknown; description?: string; markdownDescription?: string; scope?: string }> =
  pkg.contributes.configuration.properties;

/** `search: { defaultLimit }` → `search.defaultLimit`; `servers` stays whole (an object setting). */
function settingKeys(obj: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) && k !== 'servers'
      ? settingKeys(v as Record<string, unknown>, `${prefix}${k}.`)
      : [[`${prefix}${k}`, v] as [string, unknown]],
  );
}

test('every McpLensSettings key is declared as mcpLens.<key> with the same default and a description', () => {
  const keys = settingKeys(DEFAULT_SETTINGS as unknown as Record<string, unknown>);
  assert.ok(keys.length >= 18);
  for (const [key, value] of keys) {
    const p = props[`mcpLens.${key}`];
    assert.ok(p, `mcpLens.${key} is declared`);
    assert.deepEqual(p.default, value, `default of mcpLens.${key}`);
    assert.ok(p.description || p.markdownDescription, `mcpLens.${key} has a description`);
    assert.ok(
      ['resource', 'window', 'machine-overridable'].includes(p.scope ?? ''),
      `mcpLens.${key} has a scope a workspace can set`,
    );
  }
  const declared = Object.keys(props).map((k) => k.slice('mcpLens.'.length));
  assert.deepEqual(declared.sort(), keys.map(([k]) => k).sort(), 'no setting is declared that McpLensSettings lacks');
});

test('package.json holds the settings as settingsSchema.ts declares them (node --import tsx scripts/manifest-contributes.mjs writes them)', () => {
  const derived = settingsContribution();
  assert.deepEqual(pkg.contributes.configuration, derived.configuration);
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, derived.restrictedConfigurations);
  for (const key of RESTRICTED_SETTINGS) assert.ok(derived.restrictedConfigurations.includes(`mcpLens.${key}`), key);
  assert.ok(derived.restrictedConfigurations.includes('mcpLens.servers'));
});

test('every registered command is contributed and every contributed command is registered', () => {
  const source = readFileSync(join(root, 'client', 'src', 'commands', 'register.ts'), 'utf8');
  const registered = [...source.matchAll(/^\s+'(mcpLens\.[A-Za-z]+)':/gm)].map((m) => m[1]).sort();
  const contributed = (pkg.contributes.commands as { command: string; category: string }[])
    .map((c) => c.command)
    .sort();
  assert.equal(registered.length, 14);
  assert.deepEqual(contributed, registered);
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'MCP Lens');
});

test('the MCP provider, walkthrough, trust and marketplace fields are there', () => {
  assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders, [{ id: 'mcpLens', label: 'MCP Lens' }]);
  assert.match(readFileSync(join(root, 'client', 'src', 'mcpProvider.ts'), 'utf8'), /MCP_PROVIDER_ID = 'mcpLens'/);
  assert.ok(pkg.activationEvents.includes('workspaceContains:.vscode/mcp.json'));
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  for (const f of ['publisher', 'displayName', 'description', 'icon', 'license', 'repository']) assert.ok(pkg[f], f);
  assert.deepEqual(pkg.categories, ['AI', 'Other']);
  assert.ok(existsSync(join(root, pkg.icon)));
  const icon = readFileSync(join(root, pkg.icon));
  assert.equal(icon.readUInt32BE(16), 128, 'icon width');
  assert.equal(icon.readUInt32BE(20), 128, 'icon height');
  for (const w of pkg.contributes.walkthroughs)
    for (const s of w.steps) assert.ok(existsSync(join(root, s.media.markdown)), s.media.markdown);
});

test('the "search" exposure names every meta-tool (protocol/metaToolNames.ts)', () => {
  const exposure = pkg.contributes.configuration.properties['mcpLens.exposure'] as {
    enum: string[];
    enumDescriptions: string[];
  };
  const search = exposure.enumDescriptions[exposure.enum.indexOf('search')]!;
  assert.ok(search.includes(`(${META_TOOL_NAMES.join(', ')})`), search);
});
