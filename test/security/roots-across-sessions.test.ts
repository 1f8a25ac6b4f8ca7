/**
 * Roots widened a shared server for every session: an upstream asking roots/list got the union
 * of every session's roots, and @modelcontextprotocol/server-filesystem replaces its allowed
 * folders with whatever roots it is given, so one session's agent read the files of a folder
 * another client had declared, still after that client left; and a server only one session used
 * heard the folder names of a session that never called it (issue #31). Now roots reach a server
 * only from the principal it runs for (SECURITY.md "Whom a session acts for"): over `serve --http`
 * each session is its own principal, with its own stdio processes.
 *
 * The real gateway over streamable HTTP, real SDK clients, the real filesystem server.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { eventually, startSessionWorld, text, type SessionWorld } from './sessionWorld';

let world: SessionWorld;
before(async () => {
  world = await startSessionWorld();
});
after(async () => {
  await world?.close();
});

test("a session cannot read another client's root through filesystem, before or after that client leaves", async () => {
  const secretDir = world.folder('private-b', 'secret.txt', 'the secret of B');
  const publicDir = join(world.dir, 'public');
  const a = await world.connect('a', {});
  const b = await world.connect('b', { roots: { listChanged: true } }, [secretDir]);
  assert.match(text(await a.call('fs_read_text_file', { path: join(publicDir, 'readme.txt') })), /public file/);
  // B's own filesystem works in B's root, once the server took it: it asks after initialize and
  // on roots/list_changed, and answers calls meanwhile; a question outside a call reaches B on
  // its standalone stream, which B's client opens at its own pace, so B says its roots changed
  // until they are there.
  await eventually("B's root in B's filesystem", async () => {
    await b.client.sendRootsListChanged();
    return /private-b/.test(text(await b.call('fs_list_allowed_directories', {})));
  });
  assert.match(text(await b.call('fs_read_text_file', { path: join(secretDir, 'secret.txt') })), /the secret of B/);

  const whileThere = await a.call('fs_read_text_file', { path: join(secretDir, 'secret.txt') });
  assert.equal(whileThere.isError, true, text(whileThere));
  assert.doesNotMatch(text(whileThere), /the secret of B/);
  assert.doesNotMatch(text(await a.call('fs_list_allowed_directories', {})), /private-b/);

  await b.close();
  const afterLeaving = await a.call('fs_read_text_file', { path: join(secretDir, 'secret.txt') });
  assert.equal(afterLeaving.isError, true, text(afterLeaving));
  assert.doesNotMatch(text(afterLeaving), /the secret of B/);
  assert.match(text(await a.call('fs_read_text_file', { path: join(publicDir, 'readme.txt') })), /public file/);
});

test("a server only one session uses never hears another session's roots", async () => {
  const mine = world.folder('root-of-a');
  const theirs = world.folder('private-c');
  const a = await world.connect('a', { roots: { listChanged: true } }, [mine]);
  const before = JSON.parse(text(await a.call('probe_roots_seen', {}))) as { answers: string[][] };
  assert.ok(
    before.answers.some((r) => r.includes(pathToFileURL(mine).href)),
    JSON.stringify(before),
  );
  // C declares roots and never calls the probe.
  const c = await world.connect('c', { roots: { listChanged: true } }, [theirs]);
  await c.client.sendRootsListChanged();
  const seen = JSON.parse(text(await a.call('probe_roots_seen', {}))) as { answers: string[][] };
  for (const answer of seen.answers) assert.deepEqual(answer, [pathToFileURL(mine).href], JSON.stringify(seen));
});
