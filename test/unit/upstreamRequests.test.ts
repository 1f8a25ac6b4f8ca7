// Which downstream session answers what an upstream asks (adapters/upstream/inFlightCalls.ts,
// app/upstreamRequests.ts), with recording callers in place of gateway sessions.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpError, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { InFlightCalls } from '../../server/src/adapters/upstream/inFlightCalls';
import type { JsonObject, UpstreamCaller } from '../../server/src/adapters/upstream/types';
import type { UpstreamPool } from '../../server/src/adapters/upstream/pool';
import { UpstreamRequests, missingCapability } from '../../server/src/app/upstreamRequests';
import { silentLogger } from '../../server/src/core/logger';

interface Recorder extends UpstreamCaller {
  asked: string[];
  told: JsonObject[];
}

function caller(
  sessionId: string,
  caps: ClientCapabilities = { sampling: {}, elicitation: {}, roots: {} },
  roots: string[] = [],
): Recorder {
  const asked: string[] = [];
  const told: JsonObject[] = [];
  return {
    sessionId,
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

function router(): { requests: UpstreamRequests; levels: string[]; rootsChanged: () => number } {
  const levels: string[] = [];
  let roots = 0;
  const requests = new UpstreamRequests({ log: silentLogger, resolveUri: () => undefined });
  requests.usePool({
    setLogLevel: (l: string) => levels.push(l),
    rootsChanged: () => roots++,
  } as unknown as UpstreamPool);
  return { requests, levels, rootsChanged: () => roots };
}

describe('attribution of what an upstream sends', () => {
  test('inside a call, the call whose stream carried it; outside, the sessions in flight, latest last', async () => {
    const calls = new InFlightCalls(true);
    const a = caller('a');
    const b = caller('b');
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
    await Promise.resolve();
    const outside = calls.attribute();
    assert.equal(outside.exact, undefined);
    assert.deepEqual(
      outside.inFlight.map((c) => c.sessionId),
      ['a', 'b'],
    );
    release();
    await Promise.all([first, second]);
    assert.deepEqual(seen.sort(), ['a', 'b']);
    assert.deepEqual(calls.attribute().inFlight, []);
  });

  test('over stdio no call sets an async context (nothing arrives in one): only the calls in flight are known', async () => {
    const calls = new InFlightCalls(false);
    let inside: ReturnType<InFlightCalls['attribute']> | undefined;
    await calls.track(caller('a'), async () => {
      await Promise.resolve();
      inside = calls.attribute();
    });
    assert.equal(inside?.exact, undefined);
    assert.deepEqual(
      inside?.inFlight.map((c) => c.sessionId),
      ['a'],
    );
    assert.deepEqual(calls.attribute().inFlight, []);
  });
});

describe('routing what an upstream asks', () => {
  test('the exact call first, else the latest call in flight', async () => {
    const { requests } = router();
    const a = caller('a');
    const b = caller('b');
    assert.deepEqual(await requests.request('s', 'elicitation/create', {}, { exact: a, inFlight: [a, b] }, signal), {
      answeredBy: 'a',
    });
    assert.deepEqual(await requests.request('s', 'sampling/createMessage', {}, { inFlight: [a, b] }, signal), {
      answeredBy: 'b',
    });
  });

  test('with no call in flight: the only session, else an error at once', async () => {
    const { requests } = router();
    const a = caller('a');
    await assert.rejects(requests.request('s', 'elicitation/create', {}, { inFlight: [] }, signal), (e: McpError) =>
      /no client is connected/.test(e.message),
    );
    const detach = requests.attach(a);
    assert.deepEqual(await requests.request('s', 'elicitation/create', {}, { inFlight: [] }, signal), {
      answeredBy: 'a',
    });
    requests.attach(caller('b'));
    await assert.rejects(
      requests.request('s', 'elicitation/create', {}, { inFlight: [] }, signal),
      /2 clients are connected/,
    );
    detach.dispose();
  });

  test('roots outside a call: every session that lists roots, merged; none: -32601', async () => {
    const { requests, rootsChanged } = router();
    await assert.rejects(
      requests.request('s', 'roots/list', undefined, { inFlight: [] }, signal),
      (e: McpError) => e.code === -32601,
    );
    requests.attach(caller('a', { roots: {} }, ['file:///one', 'file:///two']));
    requests.attach(caller('b', { roots: {} }, ['file:///two', 'file:///three']));
    requests.attach(caller('c', {}));
    assert.equal(rootsChanged(), 2, 'each session with roots told the upstreams');
    const r = await requests.request('s', 'roots/list', undefined, { inFlight: [] }, signal);
    assert.deepEqual(
      (r.roots as { uri: string }[]).map((x) => x.uri),
      ['file:///one', 'file:///two', 'file:///three'],
    );
  });

  test('log messages: to the causing session by its level; with no call, to the sessions that set a level', () => {
    const { requests, levels } = router();
    const a = caller('a');
    const b = caller('b');
    const c = caller('c');
    for (const s of [a, b, c]) requests.attach(s);
    requests.setLogLevel('a', 'warning');
    requests.setLogLevel('b', 'debug');
    assert.deepEqual(levels, ['warning', 'debug'], 'upstreams get the most verbose level asked');
    requests.notification('s', 'notifications/message', { level: 'info', data: 'x' }, { inFlight: [a] });
    assert.deepEqual(a.told, [], "below a's level");
    requests.notification('s', 'notifications/message', { level: 'info', data: 'y' }, { inFlight: [] });
    assert.deepEqual([a.told.length, b.told.length, c.told.length], [0, 1, 0]);
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
