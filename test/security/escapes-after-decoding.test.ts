/**
 * Escapes after decoding (issue #23). An upstream's reply is cleaned as text in the one call
 * path (app/toolCalls.ts), but JSON that writes its escapes as JSON escapes — `\u001b[31m`,
 * `\u202e`, `\udb40\udc48`, six ASCII characters each — holds no control character until
 * something decodes it, and MCP Lens decodes JSON on the agent's behalf: `select` parses a
 * text block's JSON and JSON inside structuredContent's strings, and run_code hands a script a
 * text's JSON parsed (call_tool(), read_result()) and passes on what the script returns, logs or
 * throws, after it parsed whatever it liked. Both handed the agent raw escape sequences, bidi
 * overrides and tag characters; a JMESPath projection could even build a tag character out of
 * two characters that are harmless apart. Now every value leaving a decoding step is cleaned
 * with the reply policy (protocol/untrustedText.ts), keys included, and emoji and every script
 * come through.
 *
 * A real upstream (test/fixtures/servers/escapedJson.mjs) behind the real gateway
 * (GatewayHttpServer over a LensApp), driven by a real SDK client.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fixtureServer, startGatewayWorld, text, type GatewayWorld } from '../faults/faultWorld';

/** What nothing the agent gets may hold, as text or once decoded: C0 but tab, LF and CR; DEL and C1; bidi embeddings, overrides and isolates; tag characters; lone surrogates. */
const FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const FILLER = 'weather report for the coast, '.repeat(40).trim();
/** The fixture's report, decoded and cleaned: the words stay, escape sequences go whole, `kept` and `parts` are untouched. */
const CLEAN_REPORT = {
  name: 'evil',
  notes: ['csi red', 'tags:', 'split \ufffd\ufffd pair', 'osc  end'],
  key: 'bidi key',
  kept: 'tab\tcr\r\nline \u{1f468}\u200d\u{1f4bb} \u2714\ufe0f 日本語 مرحبا \u200fRTL',
  parts: { vs: '\u{e0100}', eye: '\u{1f441}' },
  filler: FILLER,
};

let g: GatewayWorld;
before(async () => {
  g = await startGatewayWorld({ esc: fixtureServer('escapedJson.mjs') });
  // The attack's premise: as text, the reply holds nothing any cleaning of text removes.
  const plain = await g.call('call_tool', { tool_name: 'esc_report', arguments: {} });
  assert.ok(!plain.isError, text(plain));
  assert.match(text(plain), /^\{"name":"\\u001b\[31mevil\\u202e"/);
  assert.match(text(plain), /^[\x20-\x7e]+$/, 'the fixture writes every special character as a JSON escape');
});
after(async () => {
  await g?.close();
});

/** Every string and key of a value, at any depth. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) (out.push(k), stringsOf(v, out));
  return out;
}

/** No forbidden character in any text item, in what a text item's JSON decodes to, or in structuredContent. */
function assertClean(r: CallToolResult): void {
  const seen: string[] = [];
  for (const item of r.content ?? []) {
    if (item.type !== 'text') continue;
    seen.push(item.text);
    try {
      stringsOf(JSON.parse(item.text), seen);
    } catch {
      // Not JSON: the text itself was checked.
    }
  }
  stringsOf(r.structuredContent, seen);
  for (const s of seen) assert.doesNotMatch(s, FORBIDDEN, JSON.stringify(s));
}

async function selectOn(tool: string, select: string): Promise<CallToolResult> {
  const r = await g.call('call_tool', { tool_name: tool, arguments: {}, select });
  assert.ok(!r.isError, text(r));
  assertClean(r);
  return r;
}

async function runCode(code: string): Promise<CallToolResult> {
  const r = await g.call('run_code', { code });
  assertClean(r);
  return r;
}

test("select over a text block's JSON: the projection is cleaned, keys included; emoji and other scripts survive", async () => {
  const whole = await selectOn('esc_report', '@');
  assert.deepEqual(JSON.parse(text(whole)), CLEAN_REPORT);
  assert.deepEqual(whole.structuredContent, CLEAN_REPORT);
  assert.equal(text(await selectOn('esc_report', 'name')), '"evil"');
  assert.deepEqual(JSON.parse(text(await selectOn('esc_report', 'notes'))), CLEAN_REPORT.notes);
  assert.deepEqual(JSON.parse(text(await selectOn('esc_report', 'sort(keys(@))'))), [
    'filler',
    'kept',
    'key',
    'name',
    'notes',
    'parts',
  ]);
});

test("select over JSON inside structuredContent's strings (opened for select) is cleaned the same way", async () => {
  const opened = await selectOn('esc_wrapped', 'content');
  assert.deepEqual(JSON.parse(text(opened)), CLEAN_REPORT);
  assert.equal(text(await selectOn('esc_wrapped', 'content.kept')), JSON.stringify(CLEAN_REPORT.kept));
});

test('a projection that builds a tag character out of clean parts (UTF-16 halves joined) is cleaned after it is built', async () => {
  // U+E0100 (a variation selector, kept) is \udb40\udd00; U+1F441 (an eye) is \ud83d\udc41: their halves make U+E0041, TAG LATIN CAPITAL LETTER A.
  const built = await selectOn('esc_report', "join('', [split(parts.vs, '')[0], split(parts.eye, '')[1]])");
  assert.equal(text(built), '""');
  assert.deepEqual(
    JSON.parse(text(await selectOn('esc_report', "split(parts.vs, '')"))),
    ['\ufffd', '\ufffd'],
    'lone halves become U+FFFD',
  );
});

test("run_code: what call_tool() hands a script from a text's JSON, with and without select, is cleaned", async () => {
  const whole = await runCode('return await call_tool("esc_report", {});');
  assert.ok(!whole.isError, text(whole));
  assert.deepEqual(JSON.parse(text(whole)), CLEAN_REPORT);
  const selected = await runCode(
    'return await call_tool("esc_wrapped", {}, { select: "content.{name: name, notes: notes}" });',
  );
  assert.deepEqual(JSON.parse(text(selected)), { name: 'evil', notes: CLEAN_REPORT.notes });
});

test('run_code: what a script parses itself and returns, logs or throws is cleaned', async () => {
  const parse = 'const r = await call_tool("esc_wrapped", {}); const doc = JSON.parse(r.content);';
  const returned = await runCode(
    `${parse} console.log(doc.name, doc.notes.join(" | "), Object.keys(doc).join(",")); return doc;`,
  );
  assert.ok(!returned.isError, text(returned));
  const [value, log] = (returned.content ?? []).map((c) => (c as { text: string }).text);
  assert.deepEqual(JSON.parse(value!), CLEAN_REPORT);
  // A log line leaves QuickJS as UTF-8, where each lone surrogate was already three U+FFFD.
  assert.match(
    log!,
    /^console\.log:\nevil csi red \| tags: \| split \ufffd+ pair \| osc {2}end name,notes,key,kept,parts,filler$/,
  );
  const thrown = await runCode(`${parse} console.log(doc.kept); throw new Error(doc.name + " " + doc.notes[1]);`);
  assert.equal(thrown.isError, true);
  assert.match(text(thrown), /runtime error \(line 1, column \d+\): Error: evil tags:\./);
  assert.ok(text(thrown).includes(`console.log before it stopped:\n${CLEAN_REPORT.kept}`), text(thrown));
});

test('run_code: read_result of a kept (cut) result hands the script its JSON cleaned', async () => {
  const cut = await g.call('call_tool', { tool_name: 'esc_report', arguments: {}, max_output_tokens: 100 });
  const uri = /"(mcp-lens:\/\/results\/[^"]+)"/.exec(text(cut))?.[1];
  assert.ok(uri, text(cut));
  const read = await runCode(`return await read_result(${JSON.stringify(uri)});`);
  assert.ok(!read.isError, text(read));
  assert.deepEqual(JSON.parse(text(read)), CLEAN_REPORT);
});
