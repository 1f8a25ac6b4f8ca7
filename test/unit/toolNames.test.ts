import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';
import { assignToolNames, baseToolName, SAFE_TOOL_NAME, shortHash } from '../../server/src/core/toolNames';

const names = (tools: [string, string][]) => assignToolNames(tools.map(([server, name]) => ({ server, name })));

describe('baseToolName', () => {
  const cases: [string, string, string][] = [
    ['github', 'create_issue', 'github_create_issue'],
    ['my server', 'get.thing', 'my_server_get_thing'],
    ['a//b', 'x  y', 'a_b_x_y'],
    ['chrome-devtools', 'take_snapshot', 'chrome-devtools_take_snapshot'],
    ['srv', '__init__', 'srv_init'],
    ['srv', 'ünïcödé', 'srv_n_c_d'],
    ['Azure', 'Storage/List', 'Azure_Storage_List'],
  ];
  for (const [server, tool, expected] of cases) {
    test(`${server} + ${tool} → ${expected}`, () => assert.equal(baseToolName(server, tool), expected));
  }

  test('a name with no safe character gets a stable hashed spelling', () => {
    const a = baseToolName('srv', '日本語');
    assert.match(a, /^srv_x[0-9a-z]{6}$/);
    assert.equal(a, baseToolName('srv', '日本語'));
    assert.notEqual(a, baseToolName('srv', '中文'));
  });

  test('too long → cut to 64 with a hash of the key', () => {
    const long = baseToolName(
      'a-very-long-server-name-for-testing',
      'and_an_even_longer_tool_name_that_goes_on_and_on',
    );
    assert.equal(long.length, 64);
    assert.match(long, SAFE_TOOL_NAME);
    assert.match(long, /_[0-9a-z]{6}$/);
    const other = baseToolName(
      'a-very-long-server-name-for-testing',
      'and_an_even_longer_tool_name_that_goes_on_and_on_2',
    );
    assert.notEqual(long, other, 'same prefix, different key → different name');
  });
});

describe('assignToolNames', () => {
  test('unique tools keep their plain names', () => {
    const m = names([
      ['github', 'create_issue'],
      ['gitlab', 'create_issue'],
    ]);
    assert.equal(m.get('github/create_issue'), 'github_create_issue');
    assert.equal(m.get('gitlab/create_issue'), 'gitlab_create_issue');
  });

  test('collisions: the exact spelling keeps the name, the others get a hash, whatever the input order', () => {
    const tools: [string, string][] = [
      ['srv', 'get.item'],
      ['srv', 'get_item'],
      ['srv', 'get item'],
    ];
    const forward = names(tools);
    const backward = names([...tools].reverse());
    assert.deepEqual([...forward.entries()].sort(), [...backward.entries()].sort());
    const values = [...forward.values()];
    assert.equal(new Set(values).size, 3);
    assert.equal(
      forward.get('srv/get_item'),
      'srv_get_item',
      'the name spelled as listed wins (test/security/b11 for the attack)',
    );
    assert.equal(forward.get('srv/get.item'), `srv_get_item_${shortHash('srv/get.item')}`);
    assert.equal(forward.get('srv/get item'), `srv_get_item_${shortHash('srv/get item')}`);
  });

  test('adding a tool elsewhere renames nothing', () => {
    const before = names([
      ['a', 'x'],
      ['b', 'y'],
    ]);
    const after = names([
      ['a', 'x'],
      ['b', 'y'],
      ['c', 'z'],
    ]);
    for (const [k, v] of before) assert.equal(after.get(k), v);
  });

  test('a plain name that looks like a hashed name is never taken by a loser', () => {
    const loserName = `s_t_${shortHash('s/t!')}`;
    const m = names([
      ['s', 't'],
      ['s', 't!'],
      ['s', loserName.slice(2)],
    ]);
    assert.equal(new Set(m.values()).size, 3);
    assert.equal(m.get(`s/${loserName.slice(2)}`), loserName, 'the real tool keeps its own name');
  });

  test('every name of the 371 recorded tools is safe and unique, and stable across runs', async () => {
    const rec = readRecordedCatalog();
    const tools = Object.entries(rec.servers).flatMap(([server, s]) => s.tools.map((t) => ({ server, name: t.name })));
    const m = assignToolNames(tools);
    assert.equal(m.size, tools.length);
    assert.equal(new Set(m.values()).size, tools.length);
    for (const n of m.values()) assert.match(n, SAFE_TOOL_NAME);
    assert.deepEqual(assignToolNames([...tools].reverse()), new Map([...m.entries()].reverse()));
  });
});
