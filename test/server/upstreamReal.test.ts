/**
 * The upstream pool against the real npm servers (everything, filesystem, memory) over stdio,
 * plus the recorded tools/list of 19 servers replayed with pagination.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamPool, type UpstreamChange } from '../../server/src/adapters/upstream/pool';
import { isProcessAlive as isAlive } from '../../server/src/adapters/processProbe';
import { silentLogger } from '../../server/src/core/logger';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';
import { fixture, nodeConfig, realServer, statusOf, until } from '../fixtures/servers/poolWorld';

const text = (r: { content?: unknown }) =>
  (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');

describe('upstream pool: real npm servers over stdio', () => {
  let dir: string;
  let pool: UpstreamPool;
  const changes: UpstreamChange[] = [];
  const seenPids = new Set<number>();

  before(async () => {
    process.env.LENS_PARENT_VAR = 'from-parent'; // inherited like VS Code does, beyond the SDK's short list
    dir = mkdtempSync(join(tmpdir(), 'mcp-lens-upstream-'));
    writeFileSync(join(dir, 'hello.txt'), 'hello from the test');
    pool = new UpstreamPool({
      log: silentLogger,
      connectTimeoutMs: 15_000,
      requestTimeoutMs: 10_000,
      restart: { initialDelayMs: 100, maxDelayMs: 400, maxAttempts: 3 },
    });
    pool.onDidChange((c) => {
      changes.push(c);
      for (const s of pool.statuses()) if (s.pid) seenPids.add(s.pid);
    });
    await pool.setServers([
      nodeConfig('everything', realServer('everything'), ['stdio'], { LENS_CONFIG_VAR: 'from-config' }),
      nodeConfig('filesystem', realServer('filesystem'), [dir]),
      nodeConfig('memory', realServer('memory'), [], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
    ]);
  });

  after(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('all three are ready with their tools, prompts and resources', () => {
    for (const name of ['everything', 'filesystem', 'memory']) {
      const s = statusOf(pool, name);
      assert.equal(s.state, 'ready', `${name}: ${s.error}`);
      assert.ok(s.toolCount > 0 && s.pid && s.readyAt);
    }
    const names = (server: string) =>
      pool
        .tools()
        .filter((t) => t.server === server)
        .map((t) => t.name);
    assert.ok(names('everything').includes('echo'));
    assert.ok(names('filesystem').includes('read_text_file') || names('filesystem').includes('read_file'));
    assert.ok(names('memory').includes('create_entities'));
    assert.ok(
      pool.prompts().some((p) => p.server === 'everything'),
      'everything offers prompts',
    );
    assert.ok(
      pool.resources().some((r) => r.server === 'everything'),
      'everything offers resources',
    );
    assert.ok(pool.tools().every((t) => t.inputSchema.type === 'object'));
  });

  test('calls, prompts and resources route to the right server', async () => {
    assert.equal(
      text(await pool.callTool('everything', 'echo', { message: 'lens' }, { timeoutMs: 5000 })),
      'Echo: lens',
    );
    const read = await pool.callTool(
      'filesystem',
      'read_text_file',
      { path: join(dir, 'hello.txt') },
      { timeoutMs: 5000 },
    );
    assert.match(text(read), /hello from the test/);
    const outside = await pool.callTool('filesystem', 'read_text_file', { path: '/etc/passwd' }, { timeoutMs: 5000 });
    assert.equal(outside.isError, true, 'upstream isError results come back untouched');
    const prompt = pool.prompts().find((p) => p.server === 'everything' && !p.arguments?.some((a) => a.required));
    assert.ok(prompt);
    const got = await pool.getPrompt('everything', prompt.name, {});
    assert.ok(got.messages.length > 0);
    const resource = pool.resources().find((r) => r.server === 'everything');
    assert.ok(resource);
    const contents = await pool.readResource('everything', resource.uri);
    assert.equal(contents.contents[0]?.uri, resource.uri);
  });

  test("stdio children get process.env merged with the server's env", async () => {
    const env = JSON.parse(text(await pool.callTool('everything', 'get-env', {}, { timeoutMs: 5000 }))) as Record<
      string,
      string
    >;
    assert.equal(env.LENS_CONFIG_VAR, 'from-config');
    assert.equal(env.LENS_PARENT_VAR, 'from-parent');
  });

  test('a resources list_changed from the real server is picked up', async () => {
    const data = `data:text/plain;base64,${Buffer.from('zip me').toString('base64')}`;
    await pool.callTool(
      'everything',
      'gzip-file-as-resource',
      { name: 'lens-test.gz', data, outputType: 'resourceLink' },
      { timeoutMs: 5000 },
    );
    await until(pool, () => pool.resources().some((r) => r.uri.endsWith('/lens-test.gz')), 'session resource listed');
    assert.ok(changes.some((c) => c.server === 'everything' && c.kind === 'resources'));
  });

  test('a server killed mid-session is restarted with backoff to ready', async () => {
    const before = statusOf(pool, 'memory');
    process.kill(before.pid!, 'SIGKILL');
    const back = await until(
      pool,
      () => {
        const s = statusOf(pool, 'memory');
        return s.state === 'ready' && s.pid !== before.pid && s;
      },
      'memory back to ready',
      15_000,
    );
    assert.equal(back.restarts, before.restarts + 1);
    assert.ok(changes.some((c) => c.server === 'memory' && c.kind === 'state'));
    const made = await pool.callTool(
      'memory',
      'create_entities',
      { entities: [{ name: 'lens', entityType: 'tool', observations: ['works'] }] },
      { timeoutMs: 5000 },
    );
    assert.notEqual(made.isError, true);
  });

  test('after close() no child process remains', async () => {
    for (const s of pool.statuses()) if (s.pid) seenPids.add(s.pid);
    assert.ok(seenPids.size >= 4, `pids seen: ${seenPids.size}`);
    await pool.close();
    assert.deepEqual([...seenPids].filter(isAlive), []);
    assert.deepEqual(pool.statuses(), []);
  });
});

describe('upstream pool: recorded servers replayed with pagination', () => {
  test('every tool of a paginated tools/list is collected', async () => {
    const recording = readRecordedCatalog();
    const pool = new UpstreamPool({ log: silentLogger, connectTimeoutMs: 15_000 });
    try {
      await pool.setServers([
        nodeConfig('github', fixture('replay.mjs'), ['github', '--page-size', '7']),
        nodeConfig('all', fixture('replay.mjs'), ['all', '--page-size', '50']),
      ]);
      const github = pool
        .tools()
        .filter((t) => t.server === 'github')
        .map((t) => t.name);
      assert.deepEqual(
        github,
        recording.servers.github.tools.map((t) => t.name),
      );
      const total = Object.values(recording.servers).reduce((n, s) => n + s.tools.length, 0);
      assert.equal(statusOf(pool, 'all').toolCount, total);
      const called = await pool.callTool('github', github[0], {}, { timeoutMs: 5000 });
      assert.equal(text(called), `called ${github[0]}`);
    } finally {
      await pool.close();
    }
  });
});
