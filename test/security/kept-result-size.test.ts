/**
 * Kept results (`mcp-lens://results/<id>`, a cut result kept whole for the session) were
 * counted by their text alone (issue #23): a result with a short text and 8 MB of image and
 * structuredContent counted as a few KB, so a session kept 50 of them (400 MB) and every
 * session as many. Now a result counts by everything it holds (its JSON plus the text kept
 * beside it), so the per-session (32 MB) and overall (128 MB) limits hold for what is really
 * in memory, and what resources/list says of each one's size is true.
 *
 * A real gateway (GatewayHttpServer over a LensApp) with the faulty fixture in `bulky` mode.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { faulty, startGatewayWorld, text, type GatewayWorld } from '../faults/faultWorld';
import { MAX_SESSION_BYTES, RESULT_URI_PREFIX } from '../../server/src/gateway/resultStore';

const MB = 1024 * 1024;
const CALLS = 8;

let g: GatewayWorld;
before(async () => {
  g = await startGatewayWorld({ bulky: faulty('bulky') });
});
after(async () => {
  await g?.close();
});

test('a cut result with little text and 8 MB of other content counts as 8 MB, and a session keeps no more than its limit', async () => {
  for (let i = 0; i < CALLS; i++) {
    const r = await g.call('call_tool', { tool_name: 'bulky_bulky', arguments: { mb: 8 }, max_output_tokens: 100 });
    assert.ok(!r.isError, text(r).slice(0, 300));
    assert.match(text(r), /Output cut at 100 of/);
  }
  const kept = (await g.client.listResources()).resources.filter((r) => r.uri.startsWith(RESULT_URI_PREFIX));
  const sizes = kept.map((r) => r.size ?? 0);
  assert.ok(kept.length >= 1, 'the latest result is kept');
  for (const size of sizes) assert.ok(size >= 8 * MB, `a kept result listed as ${size} bytes holds 8 MB`);
  const total = sizes.reduce((a, b) => a + b, 0);
  assert.ok(total <= MAX_SESSION_BYTES, `the session keeps ${kept.length} results, ${Math.round(total / MB)} MB`);
  assert.equal(g.http.stats().tokens.keptResults?.length, kept.length, 'the dashboard counts the same');
});
