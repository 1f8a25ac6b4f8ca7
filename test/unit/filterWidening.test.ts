// Whether a change of include/exclude shows more tools (core/config/filterWidening.ts), judged on
// the patterns as sets, conservatively; and the filters in force while a widening waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveFilter, filterWidening } from '../../server/src/core/config/filterWidening';
import { createToolFilter, createToolFilters } from '../../server/src/core/config/toolFilter';
import { parseToolFilterValue, toolFilterValue } from '../../protocol/settings';

const spec = (include: string[], exclude: string[]) => ({ include, exclude });

test('filterWidening: which changes show more tools', async (t) => {
  const cases: { why: string; from: ReturnType<typeof spec>; to: ReturnType<typeof spec>; widens: RegExp[] }[] = [
    {
      why: 'same patterns, other order and spacing',
      from: spec(['a/*', 'b/*'], ['x']),
      to: spec([' b/* ', 'a/*'], ['x ']),
      widens: [],
    },
    { why: 'an exclude pattern added', from: spec([], ['x']), to: spec([], ['x', 'y']), widens: [] },
    { why: 'an exclude pattern removed', from: spec([], ['x', 'y']), to: spec([], ['x']), widens: [/"y" removed/] },
    {
      why: 'an exclude pattern rewritten to match the same tools',
      from: spec([], ['*/delete_*']),
      to: spec([], ['*/Delete_*']),
      widens: [/"\*\/delete_\*" removed/],
    },
    { why: 'a negated exclude removed', from: spec([], ['!gh/*']), to: spec([], []), widens: [/"!gh\/\*" removed/] },
    { why: 'include from every tool to a list', from: spec([], []), to: spec(['gh/*'], []), widens: [] },
    {
      why: 'include from a list to every tool',
      from: spec(['gh/*'], []),
      to: spec([], []),
      widens: [/include emptied/],
    },
    {
      why: 'an include pattern added',
      from: spec(['gh/*'], []),
      to: spec(['gh/*', 'fs/*'], []),
      widens: [/"fs\/\*" added/],
    },
    {
      why: 'a negated include pattern added',
      from: spec(['gh/*'], []),
      to: spec(['gh/*', '!gh/*'], []),
      widens: [/"!gh\/\*" added/],
    },
    { why: 'an include pattern removed', from: spec(['gh/*', 'fs/*'], []), to: spec(['gh/*'], []), widens: [] },
    { why: 'blank patterns are no patterns', from: spec([], ['x', '  ']), to: spec([''], ['x']), widens: [] },
  ];
  for (const c of cases) {
    await t.test(c.why, () => {
      const lines = filterWidening(c.from, c.to);
      assert.equal(lines.length, c.widens.length, lines.join('\n'));
      c.widens.forEach((re, i) => assert.match(lines[i]!, re));
    });
  }
});

test('a narrowing judged so never shows a tool the old filter hid (checked on names)', () => {
  const names = ['gh/create_issue', 'gh/delete_repo', 'fs/read_file', 'fs/write_file', 'db/query'].map(
    (n) => n.split('/') as [string, string],
  );
  const filters = [
    spec([], []),
    spec(['gh/*'], []),
    spec(['gh/*', 'fs/*'], ['*/delete_*']),
    spec([], ['fs/write_file']),
    spec(['fs/*'], ['fs/write_file', 'x']),
  ];
  for (const from of filters) {
    for (const to of filters) {
      if (filterWidening(from, to).length > 0) continue;
      const [f, g] = [createToolFilter(from.include, from.exclude), createToolFilter(to.include, to.exclude)];
      for (const [s, tool] of names)
        assert.ok(!g(s, tool) || f(s, tool), `${JSON.stringify([from, to])} shows ${s}/${tool}`);
    }
  }
});

test('filters in force together: a tool shows only when every one lets it through', () => {
  const both = createToolFilters([spec([], ['fs/move_file']), spec(['fs/*'], ['fs/write_file'])]);
  assert.equal(both('fs', 'read_file'), true);
  assert.equal(both('fs', 'move_file'), false);
  assert.equal(both('fs', 'write_file'), false);
  assert.equal(both('gh', 'list'), false);
  assert.equal(createToolFilters([])('any', 'tool'), true);
});

test("effectiveFilter: the workspace's include replaces the user's, excludes add up", () => {
  assert.deepEqual(
    effectiveFilter({ user: { include: ['a/*'], exclude: ['x'] }, workspace: { exclude: ['y', 'x'] } }),
    spec(['a/*'], ['x', 'y']),
  );
  assert.deepEqual(effectiveFilter({ user: { include: ['a/*'] }, workspace: { include: [] } }), spec([], []));
});

test('the accepted filter is recorded canonically and read back, anything else reads as nothing', () => {
  const v = toolFilterValue({ include: ['b', 'a', 'a'], exclude: [' y', 'x'] });
  assert.equal(v, '{"include":["a","b"],"exclude":["x","y"]}');
  assert.deepEqual(parseToolFilterValue(v), { include: ['a', 'b'], exclude: ['x', 'y'] });
  assert.equal(toolFilterValue({ exclude: [] }), '{"exclude":[]}');
  for (const bad of [undefined, '', 'not json', '[]', '{"include":[]}', '{"exclude":"x"}'])
    assert.equal(parseToolFilterValue(bad), undefined, String(bad));
});
