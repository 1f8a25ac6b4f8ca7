// include/exclude over `server/tool`: a security boundary (call_tool uses it), so edge cases matter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createToolFilter } from '../../server/src/core/config/toolFilter';

type Case = { include: string[]; exclude: string[]; server: string; tool: string; allowed: boolean; why: string };

const cases: Case[] = [
  { include: [], exclude: [], server: 'gh', tool: 'create_issue', allowed: true, why: 'empty include = everything' },
  { include: ['github/*'], exclude: [], server: 'github', tool: 'create_issue', allowed: true, why: 'server/*' },
  { include: ['github/*'], exclude: [], server: 'github', tool: 'repos/get', allowed: true, why: 'server/* covers tool names with /' },
  { include: ['github/*'], exclude: [], server: 'github', tool: 'a/b/c', allowed: true, why: 'deeper tool names too' },
  { include: ['github/*'], exclude: [], server: 'gitlab', tool: 'create_issue', allowed: false, why: 'other server not included' },
  { include: ['github/*'], exclude: [], server: 'github-enterprise', tool: 'x', allowed: false, why: 'no prefix match on server' },
  { include: ['github'], exclude: [], server: 'github', tool: 'x', allowed: true, why: 'a pattern without / names a server' },
  { include: ['github'], exclude: [], server: 'githubx', tool: 'x', allowed: false, why: 'server-only pattern is exact' },
  { include: ['*/delete_*'], exclude: [], server: 'fs', tool: 'delete_file', allowed: true, why: '*/prefix' },
  { include: ['*/delete_*'], exclude: [], server: 'fs', tool: 'undelete_file', allowed: false, why: 'prefix anchored' },
  { include: ['*/delete_*'], exclude: [], server: 'ms/playwright', tool: 'delete_x', allowed: true, why: '* spans / in a server name' },
  { include: ['ms/playwright/*'], exclude: [], server: 'ms/playwright', tool: 'click', allowed: true, why: 'server names with /' },
  {
    include: ['ms/*'],
    exclude: [],
    server: 'ms/playwright',
    tool: 'click',
    allowed: false,
    why: 'ms/* is server "ms", not "ms/playwright"... unless the tool fits',
  },
  { include: ['gh/repos/get'], exclude: [], server: 'gh', tool: 'repos/get', allowed: true, why: 'exact tool with /' },
  { include: ['gh/repos/get'], exclude: [], server: 'gh', tool: 'repos/getx', allowed: false, why: 'exact is exact' },
  { include: ['gh/*'], exclude: ['gh/delete_*'], server: 'gh', tool: 'delete_repo', allowed: false, why: 'exclude wins over include' },
  { include: ['gh/delete_repo'], exclude: ['gh/*'], server: 'gh', tool: 'delete_repo', allowed: false, why: 'exclude wins even over an exact include' },
  { include: [], exclude: ['*/delete_*'], server: 'gh', tool: 'list', allowed: true, why: 'exclude only hides what it matches' },
  { include: [], exclude: ['*/delete_*'], server: 'gh', tool: 'Delete_Repo', allowed: false, why: 'exclude ignores case' },
  { include: [], exclude: ['GH/*'], server: 'gh', tool: 'x', allowed: false, why: 'exclude ignores case on server too' },
  { include: ['GitHub/*'], exclude: [], server: 'github', tool: 'x', allowed: false, why: 'include is case-sensitive' },
  { include: ['gh/get_?'], exclude: [], server: 'gh', tool: 'get_a', allowed: true, why: '? one char' },
  { include: ['gh/get_?'], exclude: [], server: 'gh', tool: 'get_ab', allowed: false, why: '? exactly one char' },
  { include: ['gh/{list,get}_*'], exclude: [], server: 'gh', tool: 'get_issue', allowed: true, why: 'braces' },
  { include: ['gh/{list,get}_*'], exclude: [], server: 'gh', tool: 'put_issue', allowed: false, why: 'braces exclusive' },
  { include: ['gh/[lg]et'], exclude: [], server: 'gh', tool: 'let', allowed: true, why: 'char class' },
  { include: ['gh/*'], exclude: [], server: 'gh', tool: '.hidden', allowed: true, why: 'dot names are not special' },
  { include: ['gh/a.b(c)+d'], exclude: [], server: 'gh', tool: 'a.b(c)+d', allowed: true, why: 'regex metacharacters are literal-ish' },
  { include: ['gh/a.b'], exclude: [], server: 'gh', tool: 'aXb', allowed: false, why: '. is not a regex wildcard' },
  { include: ['gh/tool name'], exclude: [], server: 'gh', tool: 'tool name', allowed: true, why: 'spaces' },
  { include: ['gh/ünïcode_*'], exclude: [], server: 'gh', tool: 'ünïcode_x', allowed: true, why: 'unicode' },
  { include: ['!gh/*'], exclude: [], server: 'gh', tool: 'x', allowed: false, why: 'negated include' },
  { include: ['!gh/*'], exclude: [], server: 'fs', tool: 'x', allowed: true, why: 'negated include lets others through' },
  { include: [], exclude: ['!*/read_*'], server: 'fs', tool: 'write_file', allowed: false, why: 'negated exclude hides everything else' },
  { include: [], exclude: ['!*/read_*'], server: 'fs', tool: 'read_file', allowed: true, why: 'negated exclude keeps its match' },
  { include: ['', '  '], exclude: [''], server: 'gh', tool: 'x', allowed: true, why: 'blank patterns are ignored' },
  { include: [' gh/* '], exclude: [], server: 'gh', tool: 'x', allowed: true, why: 'patterns are trimmed' },
  { include: ['gh/*'], exclude: [], server: 'gh', tool: 'a\u0000b', allowed: false, why: 'NUL in a name never passes' },
  { include: [], exclude: [], server: 'g\u0000h', tool: 'x', allowed: false, why: 'NUL in a server never passes' },
  { include: ['*'], exclude: [], server: 'any', tool: 'thing/x', allowed: true, why: '* alone = every server' },
  { include: ['*/*'], exclude: [], server: 'a/b', tool: 'c/d', allowed: true, why: '*/* = everything' },
  { include: [], exclude: ['**'], server: 'a', tool: 'b', allowed: false, why: '** excludes all' },
  { include: ['x'.repeat(70000)], exclude: [], server: 'gh', tool: 'x', allowed: false, why: 'an uncompilable include matches nothing' },
  { include: [], exclude: ['x'.repeat(70000)], server: 'gh', tool: 'x', allowed: false, why: 'an uncompilable exclude matches everything (fail closed)' },
];

test('createToolFilter', async (t) => {
  for (const c of cases) {
    await t.test(
      `${c.why}: include ${JSON.stringify(c.include).slice(0, 60)} exclude ${JSON.stringify(c.exclude).slice(0, 60)} → ${JSON.stringify(c.server)}/${JSON.stringify(c.tool)}`,
      () => {
        assert.equal(createToolFilter(c.include, c.exclude)(c.server, c.tool), c.allowed);
      },
    );
  }
});
