/**
 * Upstream servers that fail, through the real gateway (LensApp + GatewayHttpServer + an MCP
 * client over HTTP), with server-everything beside them. Each test asserts what the user
 * sees (call_tool text, list_servers state) and that the gateway and the healthy server go on.
 * The pool-level behaviour of the same fixtures is in test/server/poolUpstreamFaults.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVERYTHING } from '../fixtures/gatewayLens';
import { faulty, fixtureServer, rssMb, rssSampler, startGatewayWorld, text, type GatewayWorld } from './faultWorld';

describe('upstream faults through the gateway', () => {
  let g: GatewayWorld;

  before(async () => {
    g = await startGatewayWorld(
      {
        everything: EVERYTHING,
        crashstart: faulty('crash-start'),
        crashcall: fixtureServer('crash.mjs'),
        hanginit: fixtureServer('hang-init.mjs'),
        hanglist: faulty('hang-list'),
        hangcall: faulty('hang-call'),
        garbage: fixtureServer('garbage-stdout.mjs', '--stderr-mb', '8'),
        huge: faulty('huge'),
      },
      { connectTimeoutSeconds: 5 },
    );
  });
  after(() => g?.close());

  it('a server that crashes at start is an error naming its stderr reason; it has no tools', async () => {
    const s = await g.server('crashstart');
    assert.ok(['starting', 'error'].includes(s.state), s.state);
    assert.match(s.error ?? '', /missing API key/);
    assert.equal(s.tools, 0);
    const r = await g.call('call_tool', { tool_name: 'crashstart_ping', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /Unknown tool "crashstart_ping"/);
    await g.healthy();
  });

  it('a crash mid-call is an error result naming the server and its last words; it comes back', async () => {
    const r = await g.callUpstream('crashcall', 'crash');
    assert.equal(r.isError, true);
    assert.match(text(r), /Server "crashcall" stopped during the call to "crash"/);
    assert.match(text(r), /crash fixture exiting/);
    await g.healthy();
    const back = await retryUntil(async () => {
      const again = await g.callUpstream('crashcall', 'ping');
      return !again.isError && text(again) === 'pong';
    });
    assert.ok(back, 'crashcall answers again after its restart');
  });

  it('a server that hangs on initialize is an error after the connect timeout', async () => {
    const s = await g.server('hanginit');
    assert.match(s.error ?? '', /no answer to initialize within 5000 ms/);
    // Its stderr (why it hangs) is kept for the user: in the error, or in the status's tail.
    const tail = g.world.lens.servers().find((x) => x.name === 'hanginit')?.stderrTail ?? [];
    assert.ok(
      /never answering/.test(s.error ?? '') || tail.some((l) => l.includes('never answering')),
      `${s.error} | ${tail.join(' / ')}`,
    );
    await g.healthy();
  });

  it('a server that never answers tools/list is an error within the connect timeout, not a blocked startup', async () => {
    const s = await g.server('hanglist');
    assert.match(s.error ?? '', /listing failed: .*timed out/i);
    assert.equal(s.tools, 0);
    await g.healthy();
  });

  it('a call that never returns times out with a clear error; the server stays usable', async () => {
    // A short timeout for this call alone: the suite's other calls must never race one.
    const settings = g.world.lens.settings();
    await g.world.lens.updateSettings({ ...settings, callTimeoutSeconds: 3 });
    let r;
    try {
      r = await g.callUpstream('hangcall', 'hang');
    } finally {
      await g.world.lens.updateSettings(settings);
    }
    assert.equal(r.isError, true);
    assert.match(text(r), /The call to "hang" on server "hangcall" timed out after 3 s/);
    const ping = await g.callUpstream('hangcall', 'ping');
    assert.equal(text(ping), 'pong');
    assert.equal((await g.server('hangcall')).state, 'ready');
    await g.healthy();
  });

  it('non-JSON on stdout and an 8 MB stderr flood: the server works', async () => {
    const r = await g.callUpstream('garbage', 'echo', { text: 'still here' });
    assert.equal(text(r), 'echo: still here');
    assert.equal((await g.server('garbage')).state, 'ready');
    await g.healthy();
  });

  it('a 50 MB result is refused with a clear error; memory and the HTTP response survive', async (t) => {
    // Reading past 50 MB to the end of the refused answer (and answering 9 MB) can take long on a
    // loaded machine, and a timeout is not what this test is about: the refusal and the kept
    // result must come from the size rules alone.
    const settings = g.world.lens.settings();
    await g.world.lens.updateSettings({ ...settings, callTimeoutSeconds: 300 });
    try {
      const { restarts } = upstream('huge');
      const before = rssMb();
      const sampler = rssSampler();
      const r = await g.callUpstream('huge', 'huge', { mb: 50 });
      const peak = sampler.stop();
      assert.equal(r.isError, true);
      assert.match(
        text(r),
        /Server "huge" answered the call to "huge" on server "huge" with an error: .*the reply was 50\.0 MB, larger than MCP Lens's 10 MB limit/,
      );
      // Only that call failed: the connection skipped the message and stays up, not restarted.
      assert.deepEqual([upstream('huge').state, upstream('huge').restarts], ['ready', restarts]);
      // 9 MB is under the transport limit: it is answered, cut to max_output_tokens for the
      // model, and kept whole as a resource (nothing is lost).
      const nine = await g.callUpstream('huge', 'huge', { mb: 9 });
      assert.ok(!nine.isError, text(nine).slice(0, 300));
      const uri = /mcp-lens:\/\/results\/[\w-]+/.exec(text(nine))?.[0];
      assert.ok(uri, `the cut reply points to the kept result: ${text(nine).slice(-300)}`);
      assert.ok(text(nine).length < 100_000, `reply is ${text(nine).length} chars`);
      const kept = await g.client.readResource({ uri }, { timeout: 120_000 });
      const whole = kept.contents.map((c) => ('text' in c ? c.text : '')).join('');
      assert.equal(whole.length, 9 * 1024 * 1024);
      assert.match(whole, /^x+$/);
      t.diagnostic(
        `RSS of the test process (gateway in-process): ${before} MB before, ${peak} MB peak during the 50 MB answer, ${rssMb()} MB after a 9 MB answer`,
      );
      assert.ok(peak - before < 400, `RSS grew ${peak - before} MB`);
      await g.healthy();
    } finally {
      await g.world.lens.updateSettings(settings);
    }
  });

  /** The pool's status of one upstream (restart count included). */
  function upstream(name: string) {
    const s = g.world.lens.servers().find((x) => x.name === name);
    assert.ok(s, `no server ${name}`);
    return s;
  }
});

/** Retries a check that depends on a restart with backoff (up to 60 s on a loaded machine); false if it never holds. */
async function retryUntil<T>(check: () => Promise<T | false>, ms = 60_000): Promise<T | false> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== false || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}
