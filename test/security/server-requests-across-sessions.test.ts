/**
 * What a stdio upstream asked back crossed sessions: with calls of two sessions in flight on one
 * shared process, session A's elicitation (carrying A's data) was shown to session B and B's
 * answer decided A's call; A's sampling request went to B's model; A's log messages went to B
 * (issue #31). Nothing on a stdio pipe tells two calls apart, so MCP Lens no longer guesses
 * (SECURITY.md "Whom a session acts for"): sessions of different principals get their own
 * processes, and a request that cannot be attributed to exactly one session is refused.
 *
 * The overlap is made by the test, not by timing: test/fixtures/servers/sessionProbe.mjs's
 * wait_then_ask says when the call reached the upstream and asks only once the test opens its
 * gate. The real gateway over streamable HTTP, real SDK clients, real upstream processes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WORKSPACE_PRINCIPAL } from '../../server/src/core/principal';
import { until } from '../fixtures/gatewayLens';
import { alive, startSessionWorld, text, type Session, type SessionWorld } from './sessionWorld';

const ASKING = { elicitation: {}, sampling: {} };

/** A's call and B's call in flight on the probe together (A's first), each held at its gate. */
async function overlap(world: SessionWorld, a: Session, b: Session, ask: string, tag: string) {
  const ga = world.gate(`${tag}-a`);
  const gb = world.gate(`${tag}-b`);
  const ra = a.call('probe_wait_then_ask', { gate: ga.path, ask, message: `${ask} for A: A's secret` });
  const pidA = await ga.started();
  const rb = b.call('probe_wait_then_ask', { gate: gb.path, ask, message: `${ask} for B` });
  const pidB = await gb.started();
  return { ra, rb, ga, gb, pidA, pidB };
}

describe('sessions of different clients (serve --http)', () => {
  let world: SessionWorld;
  before(async () => {
    world = await startSessionWorld();
  });
  after(async () => {
    await world?.close();
  });

  test("A's elicitation reaches A only, and B's answer never decides A's call", async () => {
    const a = await world.connect('a', ASKING);
    const b = await world.connect('b', ASKING);
    const { ra, rb, ga, gb } = await overlap(world, a, b, 'elicit', 'elicit');
    ga.open();
    assert.equal(text(await ra), 'answer: accept a');
    gb.open();
    assert.equal(text(await rb), 'answer: accept b');
    assert.deepEqual(a.elicited, ["[probe] elicit for A: A's secret"]);
    assert.deepEqual(b.elicited, ['[probe] elicit for B']);
  });

  test("A's sampling request reaches A's model only", async () => {
    const a = await world.connect('a', ASKING);
    const b = await world.connect('b', ASKING);
    const { ra, rb, ga, gb } = await overlap(world, a, b, 'sample', 'sample');
    ga.open();
    assert.equal(text(await ra), "model: a's model");
    gb.open();
    assert.equal(text(await rb), "model: b's model");
    assert.deepEqual(a.sampled, ["sample for A: A's secret"]);
    assert.deepEqual(b.sampled, ['sample for B']);
  });

  test("A's log messages reach A only", async () => {
    const a = await world.connect('a', ASKING);
    const b = await world.connect('b', ASKING);
    const { ra, rb, ga, gb } = await overlap(world, a, b, 'log', 'log');
    ga.open();
    assert.equal(text(await ra), 'logged');
    gb.open();
    assert.equal(text(await rb), 'logged');
    await until('six log messages', () => a.logged.length + b.logged.length >= 6);
    assert.deepEqual(
      a.logged,
      [1, 2, 3].map((i) => `log for A: A's secret #${i}`),
    );
    assert.deepEqual(
      b.logged,
      [1, 2, 3].map((i) => `log for B #${i}`),
    );
  });

  test('each client runs its own stdio process, stopped when its session goes', async () => {
    const a = await world.connect('a', ASKING);
    const b = await world.connect('b', ASKING);
    const { ra, rb, ga, gb, pidA, pidB } = await overlap(world, a, b, 'log', 'pids');
    assert.notEqual(pidA, pidB);
    ga.open();
    gb.open();
    await Promise.all([ra, rb]);
    await b.close();
    await until("B's upstream process to end", () => !alive(pidB), 30_000);
    assert.ok(alive(pidA), "A's process is A's until A goes");
    await a.close();
    await until("A's upstream process to end", () => !alive(pidA), 30_000);
  });
});

describe("sessions of one principal (the editor's)", () => {
  let world: SessionWorld;
  before(async () => {
    world = await startSessionWorld({ principalFor: () => WORKSPACE_PRINCIPAL });
  });
  after(async () => {
    await world?.close();
  });

  test('a request that cannot be told to one session is refused, never shown to the other', async () => {
    const a = await world.connect('a', ASKING);
    const b = await world.connect('b', ASKING);
    const { ra, rb, ga, gb } = await overlap(world, a, b, 'elicit', 'one-principal');
    ga.open();
    const refused = await ra;
    assert.equal(refused.isError, true, text(refused));
    assert.match(
      text(refused),
      /refused: .*cannot tell which of its clients.*2 sessions have calls in flight on "probe"/,
    );
    assert.deepEqual(b.elicited, []);
    assert.deepEqual(a.elicited, []);
    // Once B's is the only call in flight, B's own question reaches B.
    gb.open();
    assert.equal(text(await rb), 'answer: accept b');
    assert.deepEqual(b.elicited, ['[probe] elicit for B']);
  });

  test('its sessions share the workspace processes: no process is started for them', async () => {
    const a = await world.connect('a', ASKING);
    const b = await world.connect('b', ASKING);
    const { ra, rb, ga, gb, pidA, pidB } = await overlap(world, a, b, 'log', 'shared');
    ga.open();
    gb.open();
    await Promise.all([ra, rb]);
    assert.equal(pidA, pidB);
  });
});

describe('server processes one client may run', () => {
  let world: SessionWorld;
  before(async () => {
    world = await startSessionWorld({}, { processesPerPrincipal: 1 });
  });
  after(async () => {
    await world?.close();
  });

  test('past the cap a call is refused, naming the limit and what holds it; another client is not held by it', async () => {
    const a = await world.connect('a', ASKING);
    assert.match(text(await a.call('probe_roots_seen', {})), /"pid"/);
    const refused = await a.call('fs_list_allowed_directories', {});
    assert.equal(refused.isError, true, text(refused));
    assert.match(
      text(refused),
      /MCP Lens runs at most 1 server process for one client, and client session \w+ has 1 \(probe\); they stop when its session closes/,
    );
    const b = await world.connect('b', ASKING);
    assert.match(text(await b.call('fs_list_allowed_directories', {})), /public/);
  });
});
