// Which downstream session answers what an upstream asks (adapters/upstream/inFlightCalls.ts,
// app/serverRequestTarget.ts, app/upstreamRequests.ts), with recording callers in place of
// gateway sessions: within the principal the upstream's connection runs for, and never a guess.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpError, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { InFlightCalls } from '../../server/src/adapters/upstream/inFlightCalls';
import type { JsonObject, UpstreamCaller, UpstreamSource } from '../../server/src/adapters/upstream/types';
import { UpstreamRequests, missingCapability, type InboundPool } from '../../server/src/app/upstreamRequests';
import { silentLogger } from '../../server/src/core/logger';
import { WORKSPACE_PRINCIPAL, clientPrincipal, type Principal } from '../../server/src/core/principal';

interface Recorder extends UpstreamCaller {
  asked: string[];
  told: JsonObject[];
}

const ALL: ClientCapabilities = { sampling: {}, elicitation: {}, roots: {} };

function caller(sessionId: string, principal: Principal, caps = ALL, roots: string[] = []): Recorder {
  const asked: string[] = [];
  const told: JsonObject[] = [];
  return {
    sessionId,
    principal,
    asked,
    told,
    capabilities: () => caps,
    async request(method) {
      asked.push(method);
      return method === 'roots/list' ? { roots: roots.map((uri) => ({ uri })) } : { answeredBy: sessionId };
    },
    notify(_method, params) {
      told.push(params ?? {});
    },
  };
}

const signal = new AbortController().signal;
const A = clientPrincipal('aaaaaaaa-1');
const B = clientPrincipal('bbbbbbbb-2');
const fromWorkspace: UpstreamSource = { server: 's', principal: WORKSPACE_PRINCIPAL.id, shared: false };
const fromA: UpstreamSource = { server: 's', principal: A.id, shared: false };

function router() {
  const levels: [string, string][] = [];
  const rootsChanged: string[] = [];
  const dropped: string[] = [];
  const requests = new UpstreamRequests({ log: silentLogger, resolveUri: () => undefined });
  const pool: InboundPool = {
    setLogLevel: (level, principal) => void levels.push([principal?.id ?? '-', level]),
    rootsChanged: (principal) => void rootsChanged.push(principal?.id ?? '-'),
    dropPrincipal: async (principal) => void dropped.push(principal.id),
    subscribe: async () => undefined,
    unsubscribe: async () => undefined,
    connectionOwner: (_server, principal) => principal.id,
  };
  requests.usePool(pool);
  return { requests, levels, rootsChanged, dropped };
}

describe('attribution of what an upstream sends', () => {
  test('inside a call, the call whose stream carried it; outside, every call in flight', async () => {
    const calls = new InFlightCalls(true);
    const a = caller('a', A);
    const b = caller('b', B);
    let release!: () => void;
    const open = new Promise<void>((r) => (release = r));
    const seen: unknown[] = [];
    const first = calls.track(a, async () => {
      await Promise.resolve();
      seen.push(calls.attribute().exact?.sessionId);
      await open;
    });
    const second = calls.track(b, async () => {
      seen.push(calls.attribute().exact?.sessionId);
      await open;
    });
    const third = calls.track(undefined, () => open);
    await Promise.resolve();
    const outside = calls.attribute();
    assert.equal(outside.exact, undefined);
    assert.deepEqual(
      outside.calls.map((c) => c?.sessionId),
      ['a', 'b', undefined],
    );
    release();
    await Promise.all([first, second, third]);
    assert.deepEqual(seen.sort(), ['a', 'b']);
    assert.deepEqual(calls.attribute().calls, []);
  });

  test('over stdio no call sets an async context (nothing arrives in one): only the calls in flight are known', async () => {
    const calls = new InFlightCalls(false);
    let inside: ReturnType<InFlightCalls['attribute']> | undefined;
    await calls.track(caller('a', A), async () => {
      await Promise.resolve();
      inside = calls.attribute();
    });
    assert.equal(inside?.exact, undefined);
    assert.deepEqual(
      inside?.calls.map((c) => c?.sessionId),
      ['a'],
    );
  });
});

describe('routing what an upstream asks', () => {
  test('the exact call; else the one session whose calls are in flight; two sessions: refused, neither asked', async () => {
    const { requests } = router();
    const a = caller('a', WORKSPACE_PRINCIPAL);
    const b = caller('b', WORKSPACE_PRINCIPAL);
    for (const c of [a, b]) requests.attach(c);
    const ask = (calls: (UpstreamCaller | undefined)[], exact?: UpstreamCaller) =>
      requests.request(fromWorkspace, 'elicitation/create', {}, exact ? { exact, calls } : { calls }, signal);
    assert.deepEqual(await ask([a, b], a), { answeredBy: 'a' });
    assert.deepEqual(await ask([b]), { answeredBy: 'b' });
    await assert.rejects(ask([a, b]), (e: McpError) =>
      /cannot tell which of its clients should answer elicitation\/create: 2 sessions have calls in flight on "s"/.test(
        e.message,
      ),
    );
    await assert.rejects(ask([a, undefined]), /a call made outside any session/);
    await assert.rejects(ask([undefined]), /a call made outside any session/);
    assert.deepEqual([a.asked, b.asked], [['elicitation/create'], ['elicitation/create']]);
  });

  test('several calls of one session: the session itself answers', async () => {
    const { requests } = router();
    const session = caller('a', A);
    requests.attach(session);
    const call1 = caller('a', A);
    const call2 = caller('a', A);
    await requests.request(fromA, 'sampling/createMessage', {}, { calls: [call1, call2] }, signal);
    assert.deepEqual([session.asked, call1.asked, call2.asked], [['sampling/createMessage'], [], []]);
  });

  test('with no call in flight: the only session of the principal the connection runs for, else refused', async () => {
    const { requests } = router();
    await assert.rejects(
      requests.request(fromA, 'elicitation/create', {}, { calls: [] }, signal),
      /no client that "s" runs for is connected/,
    );
    requests.attach(caller('w', WORKSPACE_PRINCIPAL));
    await assert.rejects(requests.request(fromA, 'elicitation/create', {}, { calls: [] }, signal), /no client/);
    const detach = requests.attach(caller('a', A));
    assert.deepEqual(await requests.request(fromA, 'elicitation/create', {}, { calls: [] }, signal), {
      answeredBy: 'a',
    });
    requests.attach(caller('a2', A));
    await assert.rejects(
      requests.request(fromA, 'elicitation/create', {}, { calls: [] }, signal),
      /2 sessions are connected and none has a call to "s" in flight/,
    );
    detach.dispose();
  });

  test("roots: the roots of the principal the connection runs for, merged over its sessions; never another's", async () => {
    const { requests, rootsChanged } = router();
    await assert.rejects(
      requests.request(fromA, 'roots/list', undefined, { calls: [] }, signal),
      (e: McpError) => e.code === -32601,
    );
    requests.attach(caller('a', A, { roots: {} }, ['file:///one', 'file:///two']));
    requests.attach(caller('a2', A, { roots: {} }, ['file:///two', 'file:///three']));
    const b = caller('b', B, { roots: {} }, ['file:///b-private']);
    requests.attach(b);
    requests.attach(caller('c', A, {}));
    assert.deepEqual(rootsChanged, [A.id, A.id, B.id], "each session with roots told its own principal's upstreams");
    const r = await requests.request(fromA, 'roots/list', undefined, { calls: [] }, signal);
    assert.deepEqual(
      (r.roots as { uri: string }[]).map((x) => x.uri),
      ['file:///one', 'file:///two', 'file:///three'],
    );
    // On a connection every principal shares, inside B's own call: B's roots.
    const shared: UpstreamSource = { server: 's', principal: WORKSPACE_PRINCIPAL.id, shared: true };
    const inCall = await requests.request(shared, 'roots/list', undefined, { exact: b, calls: [b] }, signal);
    assert.deepEqual(inCall.roots, [{ uri: 'file:///b-private' }]);
  });

  test('the last session of a principal going stops what it ran; the workspace never goes', () => {
    const { requests, dropped } = router();
    const a = requests.attach(caller('a', A));
    const a2 = requests.attach(caller('a2', A));
    const w = requests.attach(caller('w', WORKSPACE_PRINCIPAL));
    a.dispose();
    assert.deepEqual(dropped, []);
    a2.dispose();
    w.dispose();
    assert.deepEqual(dropped, [A.id]);
    assert.equal(requests.capabilities(A.id), undefined, 'nothing is started for a principal with no session');
  });

  test("log messages: to the one session calling, by its level; else to the principal's sessions that set a level", () => {
    const { requests, levels } = router();
    const a = caller('a', A);
    const a2 = caller('a2', A);
    const b = caller('b', B);
    for (const s of [a, a2, b]) requests.attach(s);
    requests.setLogLevel('a', 'warning');
    requests.setLogLevel('a2', 'debug');
    requests.setLogLevel('b', 'error');
    assert.deepEqual(
      levels,
      [
        [A.id, 'warning'],
        [A.id, 'debug'],
        [B.id, 'error'],
      ],
      "each principal's upstreams get the most verbose level its sessions asked",
    );
    requests.notification(fromA, 'notifications/message', { level: 'info', data: 'x' }, { calls: [a] });
    assert.deepEqual(a.told, [], "below a's level");
    requests.notification(fromA, 'notifications/message', { level: 'info', data: 'y' }, { calls: [a, a2] });
    assert.deepEqual([a.told.length, a2.told.length, b.told.length], [0, 1, 0]);
  });

  test('a client that did not declare the capability is named as the reason', () => {
    assert.equal(missingCapability({}, 'sampling/createMessage', {}), 'sampling');
    assert.equal(missingCapability({ sampling: {} }, 'sampling/createMessage', { tools: [] }), 'sampling with tools');
    assert.equal(missingCapability({ elicitation: {} }, 'elicitation/create', { mode: 'url' }), 'URL elicitation');
    assert.equal(missingCapability({ elicitation: {} }, 'elicitation/create', { mode: 'form' }), undefined);
    assert.equal(missingCapability({ elicitation: { url: {} } }, 'elicitation/create', {}), 'form elicitation');
    assert.equal(missingCapability({ roots: {} }, 'roots/list', undefined), undefined);
  });
});
