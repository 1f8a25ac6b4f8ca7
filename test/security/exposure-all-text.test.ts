/**
 * With `exposure: all`, control and bidi characters from third-party tool names and
 * descriptions reached tools/list raw. Third-party text is now made safe once, where the catalog
 * is built: every tools/list (and find_tools, the dashboard, the CLI) gets descriptions and
 * titles without escapes, control, bidi or invisible characters, under ASCII client-safe names.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { faulty, startGatewayWorld, type GatewayWorld } from '../faults/faultWorld';
import { hostileWorkspace, listedTools } from './hostileWorkspace';

/** What must never reach an agent from tool text: C0 but tab and newline, C1, bidi, zero-width and other invisible format characters, line separators. */
const FORBIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2028\u2029\ufeff\u00ad]/;

const files = hostileWorkspace({});
let g: GatewayWorld;
before(async () => {
  const p = files.path('tools.json');
  writeFileSync(
    p,
    JSON.stringify([
      {
        name: 'title\u202etxt.exe',
        title: 'Safe\u200b title\u2028second line',
        description: 'Reads \u001b]0;owned\u0007files\u202e and \u2066more\u2069\r\ncarriage',
      },
      { name: 'plain', description: 'zero\u200dwidth\ufeff joiner and soft\u00adhyphen' },
    ]),
  );
  g = await startGatewayWorld(
    { hostile: faulty('hostile'), listed: { type: 'stdio', ...listedTools(p, 'listed') } },
    { exposure: 'all' },
  );
});
after(async () => {
  await g?.close();
  files.close();
});

test('exposure all lists third-party tools without control, bidi or invisible characters', async () => {
  const { tools } = await g.client.listTools();
  const upstream = tools.filter((t) => t.name.startsWith('hostile_') || t.name.startsWith('listed_'));
  assert.ok(upstream.length >= 5, tools.map((t) => t.name).join(', '));
  for (const t of upstream) {
    assert.match(t.name, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.doesNotMatch(t.description ?? '', FORBIDDEN, `${t.name}: ${JSON.stringify(t.description?.slice(0, 200))}`);
    assert.doesNotMatch(t.title ?? '', FORBIDDEN, `${t.name} title: ${JSON.stringify(t.title)}`);
  }
  const escapes = upstream.find((t) => t.name === 'hostile_escapes')!;
  assert.match(escapes.description ?? '', /RED/, 'the words stay');
  const titled = upstream.find((t) => t.name.startsWith('listed_title'))!;
  assert.equal(titled.title, 'Safe title\nsecond line');
});
