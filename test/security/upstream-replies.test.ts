/**
 * Upstream replies are untrusted text too (issue #13: "upstream replies shown to a person or an
 * agent"), and terminal escapes, bidi overrides and tag characters in a tool's output are a
 * known way to smuggle instructions past the person watching. A reply reached the agent as the
 * upstream sent it. Now every string of a reply — text content, embedded resources,
 * structuredContent (keys too), error results, the upstream's error messages, prompts and
 * resources — loses escape sequences, C0/C1 controls other than tab/newline/CR, bidi controls
 * and tag characters, once, in the one call path (app/toolCalls.ts) and where prompts and
 * resources are read (app/lensApp.ts); everything else (data, binary content, emoji, RTL marks)
 * comes through as sent. Checked through the real gateway: call_tool, a direct call (exposure
 * all), run_code, prompts/get and resources/read.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { faulty, startGatewayWorld, text, type GatewayWorld } from '../faults/faultWorld';
// @ts-expect-error -- a plain .mjs fixture module without types
import { HOSTILE_REPLY, KEPT, PIXEL } from '../fixtures/servers/faulty/hostileTools.mjs';

/** What no reply may carry: C0 but tab, LF and CR; DEL and C1; bidi embeddings, overrides and isolates; tag characters. */
const FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/;
/** HOSTILE_REPLY as it must arrive: the words stay, escape sequences go whole, KEPT is untouched. */
const CLEAN = `Report RED beforeafter c1: bell: safeexe.txt and isolate tags: ${KEPT as string}`;

let g: GatewayWorld;
before(async () => {
  assert.match(HOSTILE_REPLY as string, FORBIDDEN, 'the fixture is hostile');
  g = await startGatewayWorld({ replies: faulty('hostile-replies') }, { exposure: 'all' });
});
after(async () => {
  await g?.close();
});

function assertCleanReport(r: CallToolResult): void {
  assert.ok(!r.isError, text(r));
  const [first, embedded, image] = r.content;
  assert.deepEqual(first, { type: 'text', text: CLEAN });
  assert.deepEqual(embedded, {
    type: 'resource',
    resource: { uri: 'hostile://report', mimeType: 'text/plain', text: CLEAN },
  });
  assert.deepEqual(
    image,
    { type: 'image', data: PIXEL, mimeType: 'image/png' },
    'binary content comes through untouched',
  );
  assert.deepEqual(
    r.structuredContent,
    { summary: CLEAN, count: 3, ok: true, items: [CLEAN, { deep: [CLEAN] }], keyname: null },
    'structuredContent: the same strings cleaned, nothing else changed',
  );
  assert.doesNotMatch(JSON.stringify(r), /pwned-title|\[31m/);
}

test('call_tool: text, embedded resources and structuredContent arrive cleaned; data and binary content are kept', async () => {
  assertCleanReport(await g.call('call_tool', { tool_name: 'replies_report', arguments: {} }));
});

test('a direct call (exposure all) goes through the same cleaning', async () => {
  assertCleanReport((await g.client.callTool({ name: 'replies_report', arguments: {} })) as CallToolResult);
});

test("an error result and the upstream's own error message are cleaned", async () => {
  const failed = await g.call('call_tool', { tool_name: 'replies_fail', arguments: {} });
  assert.equal(failed.isError, true);
  assert.equal(text(failed), `failed: ${CLEAN}`);
  const thrown = await g.call('call_tool', { tool_name: 'replies_throw', arguments: {} });
  assert.equal(thrown.isError, true);
  assert.ok(text(thrown).includes(`thrown: ${CLEAN}`), text(thrown));
  assert.doesNotMatch(text(thrown), FORBIDDEN);
});

test('run_code: what a script gets from call_tool, and the errors it catches, are cleaned', async () => {
  const value = await g.call('run_code', { code: 'const r = await call_tool("replies_report", {}); return r;' });
  assert.ok(!value.isError, text(value));
  assert.doesNotMatch(text(value), FORBIDDEN);
  assert.ok(text(value).includes('Report RED beforeafter'), text(value));
  const caught = await g.call('run_code', {
    code: 'const out = []; for (const t of ["replies_fail", "replies_throw"]) { try { await call_tool(t, {}); } catch (e) { out.push(String(e)); } } return out;',
  });
  assert.ok(!caught.isError, text(caught));
  assert.doesNotMatch(text(caught), FORBIDDEN);
  assert.match(text(caught), /failed: Report RED/);
  assert.match(text(caught), /thrown: Report RED/);
});

test('prompts/get and resources/read of an upstream are cleaned', async () => {
  const prompt = await g.client.getPrompt({ name: 'replies_note' });
  assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: CLEAN });
  const { resources } = await g.client.listResources();
  const note = resources.find((r) => r.uri.startsWith('mcp-lens://replies/'));
  assert.ok(note, JSON.stringify(resources));
  const read = await g.client.readResource({ uri: note.uri });
  assert.equal((read.contents[0] as { text?: string }).text, CLEAN);
});
