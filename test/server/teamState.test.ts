// Shared state in a real PostgreSQL 15 (bench/src/infra/postgres.ts): the schema migrated
// once by replicas opening together, the audit sink (durable, queried by every field, loud when
// the database is gone), approvals and search lessons heard by another replica, sign-in records
// sealed with the operator's key. Skips, saying why, where PostgreSQL is not installed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { AuditRecord } from '../../server/src/adapters/audit/auditSink';
import { openTeamState, type TeamState } from '../../server/src/adapters/state/teamState';
import { StateDatabase } from '../../server/src/adapters/state/stateDatabase';
import { PgAuditSink } from '../../server/src/adapters/state/pgAuditSink';
import { MIGRATIONS } from '../../server/src/adapters/state/stateSchema';
import { stateKeyFromEnv } from '../../server/src/adapters/state/stateKey';
import { lineLogger } from '../../server/src/core/logger';
import { postgresMissing, startPostgres, type PostgresCluster } from '../../bench/src/infra/postgres';

const missing = postgresMissing();
const KEY = 'a'.repeat(64);
const OTHER_KEY = 'b'.repeat(64);
const log = lineLogger((l, m) => process.env.TEST_LOG && console.error(l, m));
let cluster: PostgresCluster | undefined;
let dbs = 0;

before(async () => {
  if (!missing) cluster = await startPostgres();
});
after(async () => {
  await cluster?.stop();
});

async function freshDb(): Promise<string> {
  return cluster!.createDatabase(`state_${++dbs}`);
}

function open(url: string, replica: string, env: NodeJS.ProcessEnv = { MCP_LENS_STATE_KEY: KEY }): Promise<TeamState> {
  return openTeamState({
    url,
    workspaceFolder: '/srv/team-workspace',
    log,
    env: { ...env, MCP_LENS_REPLICA_ID: replica },
  });
}

/** Resolves with the first value `subscribe` hands its callback. */
function next<T>(subscribe: (cb: (v: T) => void) => void): Promise<T> {
  return new Promise((resolve) => subscribe(resolve));
}

function record(over: Partial<AuditRecord> = {}): AuditRecord {
  return {
    at: '2026-11-29T05:00:00.000Z',
    principal: 'https://idp.example/|alice',
    person: 'alice@example.com',
    via: 'call_tool',
    server: 'github',
    tool: 'create_issue',
    argsFingerprint: '0123456789abcdef',
    outcome: 'ok',
    durationMs: 12.5,
    resultTokens: 40,
    replica: 'r1',
    ...over,
  };
}

test(
  'replicas opening together migrate the schema once; a newer schema is refused naming the database',
  { skip: missing },
  async () => {
    const url = await freshDb();
    const states = await Promise.all([open(url, 'a'), open(url, 'b'), open(url, 'c')]);
    const rows = await states[0]!.db.query<{ version: number }>(
      't',
      'SELECT version FROM mcp_lens_schema ORDER BY version',
    );
    assert.deepEqual(
      rows.map((r) => r.version),
      MIGRATIONS.map((_, i) => i + 1),
    );
    await states[0]!.db.query('t', 'INSERT INTO mcp_lens_schema (version) VALUES (99)');
    await Promise.all(states.map((s) => s.close()));
    const withPassword = url.replace('lens@', 'lens:hunter2secret@');
    await assert.rejects(open(withPassword, 'd'), (err: Error) => {
      assert.match(err.message, /state database postgres:\/\/lens@127\.0\.0\.1:\d+\/state_\d+/);
      assert.match(err.message, /schema is version 99, newer than this MCP Lens knows/);
      assert.doesNotMatch(err.message, /hunter2secret/);
      return true;
    });
  },
);

test(
  'the audit sink commits before append resolves and answers queries by person, server, tool and time',
  { skip: missing },
  async () => {
    const url = await freshDb();
    const state = await open(url, 'r1');
    try {
      await state.audit.append(record({ at: '2026-11-29T05:00:00.000Z' }));
      await state.audit.append(
        record({
          at: '2026-11-29T05:01:00.000Z',
          principal: 'bob',

          tool: 'list_issues',
          outcome: 'refused',
          error: 'not allowed',
        }),
      );
      await state.audit.append(
        record({ at: '2026-11-29T05:02:00.000Z', server: 'files', tool: 'read_file', args: { path: 'a.txt' } }),
      );
      // Another connection sees every appended record at once: they were committed.
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      assert.equal(Number((await other.query('SELECT count(*) AS n FROM mcp_lens_audit')).rows[0].n), 3);
      await other.end();
      const newestFirst = await state.audit.query({});
      assert.deepEqual(
        newestFirst.map((r) => r.tool),
        ['read_file', 'list_issues', 'create_issue'],
      );
      assert.deepEqual(newestFirst[2], record({ at: '2026-11-29T05:00:00.000Z' }));
      assert.deepEqual(newestFirst[0]!.args, { path: 'a.txt' });
      assert.equal('args' in newestFirst[1]!, false);
      assert.deepEqual(
        (await state.audit.query({ principal: 'bob' })).map((r) => r.error),
        ['not allowed'],
      );
      assert.deepEqual((await state.audit.query({ server: 'github', tool: 'create_issue' })).length, 1);
      const window = await state.audit.query({ since: '2026-11-29T05:00:30Z', until: '2026-11-29T05:01:30Z' });
      assert.deepEqual(
        window.map((r) => r.tool),
        ['list_issues'],
      );
      assert.equal((await state.audit.query({ limit: 2 })).length, 2);
    } finally {
      await state.close();
    }
  },
);

test(
  'an audit append to a database that is gone fails loudly, naming it, after bounded retries',
  { skip: missing },
  async () => {
    const url = await freshDb();
    const db = await StateDatabase.open({ url: url.replace('lens@', 'lens:hunter2secret@'), log, replica: 'r1' });
    const waits: number[] = [];
    // The retries' waits are recorded, not slept: the test does not race a clock.
    const sink = new PgAuditSink(db, async (ms) => void waits.push(ms));
    try {
      await sink.append(record());
      // Every connection of this database is cut, and new ones are refused: the database is gone.
      const admin = new pg.Client({ connectionString: url.replace(/\/state_\d+$/, '/postgres') });
      await admin.connect();
      const name = new URL(url).pathname.slice(1);
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      await assert.rejects(sink.append(record()), (err: Error) => {
        assert.match(
          err.message,
          /^state database postgres:\/\/lens@127\.0\.0\.1:\d+\/state_\d+: recording the audit of github\/create_issue failed/,
        );
        assert.doesNotMatch(err.message, /hunter2secret/);
        return true;
      });
      assert.equal(waits.length, 3, 'three retries, then the error');
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
      // Back: the next append goes through, and the first record was never lost.
      await sink.append(record({ tool: 'after' }));
      assert.deepEqual(
        (await sink.query({})).map((r) => r.tool),
        ['after', 'create_issue'],
      );
    } finally {
      await db.close();
    }
  },
);

test('an approval saved on one replica reaches another at once and outlives the first', { skip: missing }, async () => {
  const url = await freshDb();
  const a = await open(url, 'a');
  const b = await open(url, 'b');
  try {
    const heard = next<Record<string, string>>((cb) => b.approvals.onDidChange(cb));
    await a.approvals.save({ github: 'fp-github' });
    assert.deepEqual(await heard, { github: 'fp-github' });
    await a.close();
    const c = await open(url, 'c');
    assert.deepEqual(c.approvals.current(), { github: 'fp-github' });
    await c.close();
  } finally {
    await b.close();
  }
});

test(
  'search lessons taught on one replica reach the other; a forget reaches every replica',
  { skip: missing },
  async () => {
    const url = await freshDb();
    const a = await open(url, 'a');
    const b = await open(url, 'b');
    try {
      const lesson = {
        terms: ['issue', 'open'],
        key: 'github/create_issue',
        server: 'github',
        fingerprint: '0123456789abcdef',
        delta: 1,
        words: ['open', 'issue'],
        by: 'aaaaaaaaaaaaaaaa',
      };
      const heard = next<unknown>((cb) => b.lessons.onOthers(cb));
      a.lessons.append([lesson], 1000);
      assert.deepEqual(await heard, { lessons: [{ lesson, at: 1000 }] });
      await a.lessons.settled();
      const c = await open(url, 'c');
      assert.deepEqual(c.lessons.initial(), [{ lesson, at: 1000 }]);
      const forgot = next<unknown>((cb) => c.lessons.onOthers(cb));
      b.lessons.forget();
      assert.deepEqual(await forgot, { forget: true });
      await c.close();
    } finally {
      await a.close();
      await b.close();
    }
  },
);

test(
  'sign-in records are sealed with the operator key: never in the clear, unreadable under another key',
  { skip: missing },
  async () => {
    const url = await freshDb();
    const a = await open(url, 'a');
    const tokens = { access_token: 'at-very-secret-value', token_type: 'Bearer', refresh_token: 'rt-also-secret' };
    await a.oauth.write('oauth.k1', { tokens, savedAt: 5 });
    assert.deepEqual(await a.oauth.read('oauth.k1'), { tokens, savedAt: 5 });
    const raw = await a.db.query<{ sealed: Buffer }>('t', 'SELECT sealed FROM mcp_lens_oauth');
    assert.equal(raw[0]!.sealed.includes('very-secret'), false);
    // Moved to another row, the sealed value does not open (the key is associated data).
    await a.db.query(
      't',
      `INSERT INTO mcp_lens_oauth (key, sealed, key_id) SELECT 'oauth.k2', sealed, key_id FROM mcp_lens_oauth`,
    );
    assert.equal(await a.oauth.read('oauth.k2'), undefined);
    await a.close();
    const other = await open(url, 'b', { MCP_LENS_STATE_KEY: OTHER_KEY });
    assert.equal(await other.oauth.read('oauth.k1'), undefined);
    await other.close();
    await assert.rejects(open(url, 'c', {}), /holds 2 sealed sign-in record\(s\) and no state key was given/);
    assert.throws(
      () => stateKeyFromEnv({ MCP_LENS_STATE_KEY: 'not-a-key-hunter2' }),
      (err: Error) => /MCP_LENS_STATE_KEY is not a 32-byte key/.test(err.message) && !err.message.includes('hunter2'),
    );
  },
);
