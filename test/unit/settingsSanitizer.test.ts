// The settings' one sanitizer (protocol/settings.ts over protocol/settingsSchema.ts): whatever the
// editor or a file holds becomes valid settings, each repair reported with the setting's name and
// never its value, and nothing throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, RESTART_SETTINGS, RESTRICTED_SETTINGS, sanitizeSettings } from '../../protocol/settings';

type Case = {
  name: string;
  input: unknown;
  env?: Record<string, string>;
  /** Paths into the result and the value each must have. */
  expect: Record<string, unknown>;
  /** One pattern per warning, in order. */
  warnings: RegExp[];
};

const at = (v: unknown, path: string) =>
  path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], v);

const cases: Case[] = [
  { name: 'nothing set: every default, no warning', input: undefined, expect: { '': DEFAULT_SETTINGS }, warnings: [] },
  {
    name: 'valid values pass as written, unknown keys are dropped silently',
    input: { exposure: 'all', search: { defaultLimit: 7 }, futureSetting: 1, include: ['a/*'] },
    expect: { exposure: 'all', 'search.defaultLimit': 7, futureSetting: undefined, include: ['a/*'] },
    warnings: [],
  },
  {
    name: 'a number out of range is clamped to the bound it crossed, a fraction rounded',
    input: { callTimeoutSeconds: 5000, connectTimeoutSeconds: 0, idleTimeoutMinutes: 2.6 },
    expect: { callTimeoutSeconds: 3600, connectTimeoutSeconds: 1, idleTimeoutMinutes: 3 },
    warnings: [
      /^mcpLens\.callTimeoutSeconds is more than 3600, the most it can be; 3600 applies$/,
      /^mcpLens\.connectTimeoutSeconds is less than 1, the least it can be; 1 applies$/,
    ],
  },
  {
    name: 'a wrong type or an unknown choice falls back to the default',
    input: { maxOutputTokens: 'lots', exposure: 'everything', search: 5, embedding: { enabled: 'yes' } },
    expect: { maxOutputTokens: 8000, exposure: 'search', 'search.inlineSchemas': 3, 'embedding.enabled': true },
    warnings: [
      /^mcpLens\.exposure must be one of "search", "pinned", "all", "predictive", "found"; the default \("search"\) applies$/,
      /^mcpLens\.search must be an object; the default .* applies$/,
      /^mcpLens\.embedding\.enabled must be a boolean; the default \(true\) applies$/,
      /^mcpLens\.maxOutputTokens must be a number; the default \(8000\) applies$/,
    ],
  },
  {
    name: "an array's items of the wrong type are left out, the rest kept",
    input: { include: ['a', 3, 'b', null], importFrom: ['vscode', 'nope', 'cursor'] },
    expect: { include: ['a', 'b'], importFrom: ['vscode', 'cursor'] },
    warnings: [
      /^mcpLens\.include\[1\] must be a string; it is left out$/,
      /^mcpLens\.include\[3\] must be a string; it is left out$/,
      /^mcpLens\.importFrom\[1\] must be one of .*; it is left out$/,
    ],
  },
  {
    name: 'a server entry that is no object is left out; what an entry holds is core/config\u2019s to check',
    input: { servers: { good: { command: 5, headers: { Authorization: 'Bearer s3cret' } }, bad: 'x' } },
    expect: { 'servers.good': { command: 5, headers: { Authorization: 'Bearer s3cret' } }, 'servers.bad': undefined },
    warnings: [/^mcpLens\.servers\.bad must be an object; it is left out$/],
  },
  {
    name: 'blank strings are trimmed away and fall back',
    input: { embedding: { model: '   ' }, ollama: { host: '  http://h:1  ' } },
    expect: { 'embedding.model': 'nomic-embed-text', 'ollama.host': 'http://h:1' },
    warnings: [/^mcpLens\.embedding\.model must not be empty; the default \("nomic-embed-text"\) applies$/],
  },
  {
    name: 'maxTools is never below minTools',
    input: { predict: { minTools: 20, maxTools: 5 } },
    expect: { 'predict.maxTools': 20 },
    warnings: [/^mcpLens\.predict\.maxTools is less than mcpLens\.predict\.minTools; 20 applies$/],
  },
  {
    name: 'an unset ollama.host takes OLLAMA_HOST; a set one wins',
    input: {},
    env: { OLLAMA_HOST: '0.0.0.0' },
    expect: { 'ollama.host': 'http://127.0.0.1:11434' },
    warnings: [],
  },
  {
    name: 'OLLAMA_HOST that is no host does not throw',
    input: {},
    env: { OLLAMA_HOST: 'http://[' },
    expect: { 'ollama.host': 'http://127.0.0.1:11434' },
    warnings: [/^OLLAMA_HOST is not a host or an URL/],
  },
  {
    name: 'settings that are no object: the defaults',
    input: ['a'],
    expect: { '': DEFAULT_SETTINGS },
    warnings: [/^mcpLens settings must be an object; the defaults apply$/],
  },
  {
    name: 'values JSON cannot hold do not throw',
    input: { callTimeoutSeconds: 10n },
    expect: { '': DEFAULT_SETTINGS },
    warnings: [/^mcpLens settings could not be read as JSON; the defaults apply$/],
  },
];

for (const c of cases) {
  test(`sanitizeSettings: ${c.name}`, () => {
    const warnings: string[] = [];
    const s = sanitizeSettings(c.input, c.env ?? {}, (m) => warnings.push(m));
    for (const [path, want] of Object.entries(c.expect)) assert.deepEqual(path ? at(s, path) : s, want, path);
    assert.equal(warnings.length, c.warnings.length, warnings.join('\n'));
    c.warnings.forEach((w, i) => assert.match(warnings[i]!, w));
    assert.ok(!warnings.some((w) => w.includes('s3cret')), 'a warning never carries a value');
  });
}

test('the settings needing a restart and the restricted ones are marked in the schema', () => {
  assert.deepEqual([...RESTART_SETTINGS].sort(), ['embedding.model', 'ollama.host']);
  assert.deepEqual(RESTRICTED_SETTINGS, ['ollama.host']);
});
