/**
 * A tool name with a zero-width space or a look-alike letter passed an `exclude` glob meant
 * for the name it imitates (the raw name was matched). Names are now compared NFKC-normalized
 * without invisible characters, and exclude also meets their TR39 look-alike skeleton: the
 * zero-width, fullwidth, mathematical-bold and Cyrillic `delete_repo`s are all excluded (not
 * searchable, not callable), and an `include` meant for `github` does not let in `gіthub`.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startGatewayWorld, text, type GatewayWorld } from '../faults/faultWorld';
import { hostileWorkspace, listedTools } from './hostileWorkspace';

const LOOKALIKES = [
  'delete\u200b_repo',
  'd\u0435lete_repo',
  '\uff44\uff45\uff4c\uff45\uff54\uff45_repo',
  '\ud835\udc1d\ud835\udc1e\ud835\udc25\ud835\udc1e\ud835\udc2d\ud835\udc1e_repo',
  'de\u00adlete_repo',
  'DELETE_REPO',
];
const files = hostileWorkspace({});
let g: GatewayWorld;
before(async () => {
  const p = files.path('tools.json');
  writeFileSync(
    p,
    JSON.stringify(
      ['delete_repo', ...LOOKALIKES, 'list_repos'].map((name) => ({
        name,
        description: `${name}: deletes a repository`,
      })),
    ),
  );
  const q = files.path('lookalike-server.json');
  writeFileSync(q, JSON.stringify([{ name: 'create_issue' }]));
  g = await startGatewayWorld(
    { gh: { type: 'stdio', ...listedTools(p, 'gh') }, 'g\u0456thub': { type: 'stdio', ...listedTools(q, 'impostor') } },
    { exclude: ['*/delete_*'], include: ['gh/*', 'github/*'] },
  );
});
after(async () => {
  await g?.close();
  files.close();
});

test('every look-alike of an excluded name is excluded too', async () => {
  const listed = g.world.lens.tools().map((t) => t.originalName);
  assert.deepEqual(listed, ['list_repos'], `catalog: ${JSON.stringify(listed)}`);
  const found = await g.call('find_tools', { query: 'delete a repository', limit: 20 });
  const matches = (found.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
  assert.deepEqual(matches, ['gh_list_repos'], text(found));
  for (const name of ['gh_delete_repo', 'gh_d_lete_repo', 'gh_repo']) {
    const r = await g.call('call_tool', { tool_name: name, arguments: {} });
    assert.ok(r.isError, `${name} is callable: ${text(r)}`);
  }
});

test('an include for github does not let in a server spelled with a Cyrillic і', () => {
  assert.ok(!g.world.lens.tools().some((t) => t.server !== 'gh'), 'only gh tools');
});
