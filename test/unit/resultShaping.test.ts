import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  SELECT_LIMITS,
  cutToTokens,
  projectionResult,
  resultJson,
  selectProblem,
  tokenPrefix,
  utf8Length,
} from '../../server/src/core/resultShaping';
import { boundedJson, evaluateSelect } from '../../server/src/core/selectEvaluation';
import { selectInput } from '../../server/src/core/selectSubject';
import type { SelectRunner } from '../../server/src/adapters/select/selectRunner';
import { EXACT_COUNT_CHARS, countTokens, estimateTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import {
  MAX_RESULTS_PER_SESSION,
  MAX_SESSION_BYTES,
  MAX_TOTAL_BYTES,
  RESULT_URI_PREFIX,
  ResultStore,
} from '../../server/src/gateway/resultStore';

import { shapeResult as shape, type ShapeRequest } from '../../server/src/core/resultShaping';
import { shapeSteps } from '../../server/src/gateway/callTool';
import { workspaceDomains } from '../../server/src/gateway/workspaceDomains';
import { gatewayInstructions } from '../../server/src/gateway/instructions';
import type { CatalogTool } from '../../server/src/core/catalog';

useTokenCounter(o200kTokenizer);

/** Shaping as call_tool does it, with this session's store and select runner. */
const shapeResult = (
  raw: CallToolResult,
  tool: string,
  request: ShapeRequest,
  ctx: { results: ResultStore; sessionId: string; select: SelectRunner },
) => shape(raw, tool, request, shapeSteps(ctx, tool));

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const MB = 1024 * 1024;
/** The evaluation the child process runs, in this process: shaping's logic without a process per test. */
const inProcess: SelectRunner = {
  run: async (input, expr) => evaluateSelect(input, expr, SELECT_LIMITS.maxOutputBytes),
  close: () => undefined,
};

describe('select (JMESPath)', () => {
  test('checks the expression before any call', () => {
    assert.equal(selectProblem('items[].name'), undefined);
    assert.match(selectProblem('items[.')!, /not a valid JMESPath expression/);
    assert.match(selectProblem('x'.repeat(2001))!, /limit is 2000/);
  });

  const cases: [string, CallToolResult, string, unknown][] = [
    [
      'structuredContent first',
      { content: [{ type: 'text', text: 'ignored' }], structuredContent: { items: [{ n: 1 }, { n: 2 }] } },
      'items[].n',
      [1, 2],
    ],
    ['JSON text', text('{"a": {"b": [1, 2, 3]}}'), 'a.b[1]', 2],
    [
      'several JSON texts become an array',
      {
        content: [
          { type: 'text', text: '{"v": 1}' },
          { type: 'text', text: '{"v": 2}' },
        ],
      },
      '[].v',
      [1, 2],
    ],
    [
      'filter with a raw string literal',
      text('[{"s": "open", "id": 1}, {"s": "closed", "id": 2}]'),
      "[?s=='open'].id",
      [1],
    ],
  ];
  for (const [name, result, expr, expected] of cases) {
    test(name, () => {
      const outcome = evaluateSelect(selectInput(result)!, expr, 1024);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const r = projectionResult(outcome.json);
      assert.deepEqual(r.projected, expected);
      assert.deepEqual(JSON.parse((r.result.content![0] as { text: string }).text), expected);
    });
  }

  test('plain text is returned whole with the reason', async () => {
    assert.equal(selectInput(text('just words')), undefined);
    const shaped = await shapeResult(
      text('just words'),
      'x',
      { select: 'a', maxOutputTokens: 8000 },
      { results: new ResultStore(), sessionId: 's', select: inProcess },
    );
    assert.match((shaped.result.content!.at(-1) as { text: string }).text, /plain text, not JSON/);
    assert.deepEqual(shaped.result.content![0], { type: 'text', text: 'just words' });
    assert.equal(resultJson(text('42')), undefined, 'a bare scalar text is prose, not data');
    assert.deepEqual(evaluateSelect({ texts: ['[1', '2]'] }, '@', 1024), {
      ok: false,
      problem: 'select was not applied: the result is plain text, not JSON',
    });
  });

  test('what select decodes is cleaned as a reply is: the subject as it is parsed, the projection before it is written', () => {
    // JSON escapes: the texts hold no control character until they are parsed.
    const report = String.raw`{"name":"\u001b[31mevil\u202e","k\u202e":"tags\udb40\udc48","vs":"\udb40\udd00","eye":"\ud83d\udc41","ok":"\ud83d\udc68\u200d\ud83d\udcbb \u65e5\u672c"}`;
    const json = (outcome: ReturnType<typeof evaluateSelect>) =>
      outcome.ok ? outcome.json : assert.fail(outcome.problem);
    assert.equal(
      json(evaluateSelect({ texts: [report] }, '@', 4096)),
      '{"name":"evil","vs":"\u{e0100}","eye":"\u{1f441}","ok":"\u{1f468}\u200d\u{1f4bb} 日本","k":"tags"}',
    );
    assert.equal(
      json(evaluateSelect({ texts: [], structured: { file: report } }, 'file.name', 4096)),
      '"evil"',
      'JSON inside structuredContent strings too',
    );
    // Halves of two kept characters joined into U+E0041 (a tag), and the expression's own JSON literal.
    assert.equal(
      json(evaluateSelect({ texts: [report] }, "join('', [split(vs, '')[0], split(eye, '')[1]])", 4096)),
      '""',
    );
    assert.equal(json(evaluateSelect({ texts: [report] }, '{a: `"\\u202ex\\u001b[1m"`}', 4096)), '{"a":"x"}');
    assert.deepEqual(resultJson(text(report))?.value, {
      name: 'evil',
      vs: '\u{e0100}',
      eye: '\u{1f441}',
      ok: '\u{1f468}\u200d\u{1f4bb} 日本',
      k: 'tags',
    });
  });

  test('a projection whose JSON passes the byte limit is refused before it is written out', () => {
    // 2^40 copies of the input through shared references, and a string of 10^8 characters V8 never flattens.
    const dag = `@${' | {a: @, b: @}'.repeat(40)}`;
    const started = Date.now();
    for (const expr of [dag, "pad_left('a', `100000000`)"]) {
      const outcome = evaluateSelect({ texts: [], structured: { n: 1 } }, expr, 1024 * 1024);
      assert.equal(outcome.ok, false, expr);
      assert.match((outcome as { problem: string }).problem, /larger than 1 MB, the limit for one projection/);
      assert.equal((outcome as { limit?: true }).limit, true);
    }
    assert.ok(Date.now() - started < 10_000, 'refused while counting, not after building');
    assert.equal(boundedJson({ é: ['日本', 1, null, true] }, 100), '{"é":["日本",1,null,true]}');
    assert.equal(boundedJson('日本語', 8), undefined, 'counted in UTF-8 bytes at the end');
  });
});

describe('max_output_tokens', () => {
  const long = Array.from({ length: 2000 }, (_, i) => `row ${i} of the report`).join('\n');

  test('a result that fits is not touched', () => {
    assert.equal(cutToTokens(text('short'), 100), undefined);
  });

  test('a result no longer in UTF-8 bytes than the budget is not tokenized at all', () => {
    const uncounted = () => assert.fail('tokenized a result that fits by its byte length');
    // 'é' is 2 bytes, '語' 3, '😀' 4 (two UTF-16 units): 1 + 2 + 3 + 4 + 1 bytes.
    for (const s of ['plain ascii', 'aé語😀z', '', '\u07ff\u0800\uffff', 'lone \ud800 and \udc00'])
      assert.equal(utf8Length(s), Buffer.byteLength(s, 'utf8'), s);
    const fits = 'aé語😀z';
    assert.equal(cutToTokens(text(fits), utf8Length(fits), uncounted), undefined);
    // One byte over: counted, and the count decides (it fits in tokens).
    let counted = 0;
    assert.equal(
      cutToTokens(text(fits), utf8Length(fits) - 1, () => ({ tokens: ++counted && countTokens(fits), exact: true })),
      undefined,
    );
    assert.equal(counted, 1);
  });

  test('call_tool counts no tokens for a result it passes on as it came', async () => {
    const store = new ResultStore(() => undefined);
    const raw = text('The sum of 2 and 3 is 5.');
    const shaped = await shapeResult(
      raw,
      'get_sum',
      { maxOutputTokens: 8000 },
      { results: store, sessionId: 's', select: inProcess },
    );
    assert.equal(shaped.result, raw);
    assert.equal(shaped.changed, false);
    // Counted only when read (run_code's accounting reads it), and then exactly.
    assert.equal(shaped.fullTokens, countTokens('The sum of 2 and 3 is 5.'));
    assert.equal(shaped.returnedTokens, shaped.fullTokens);
    const selected = await shapeResult(
      text('{"a": 1, "b": 2}'),
      'x',
      { select: 'a', maxOutputTokens: 8000 },
      { results: store, sessionId: 's', select: inProcess },
    );
    assert.equal(selected.changed, true);
  });

  test('cuts at a token boundary, in order, keeping non-text items and dropping structuredContent', () => {
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'head' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: long },
        { type: 'text', text: 'tail' },
      ],
      structuredContent: { rows: 2000 },
    };
    const cut = cutToTokens(result, 500)!;
    assert.equal(cut.keptTokens, 500);
    assert.equal(cut.fullTokens, countTokens(`head\n${long}\ntail`));
    assert.equal(cut.result.structuredContent, undefined);
    assert.deepEqual(
      cut.result.content!.map((c) => c.type),
      ['text', 'image', 'text'],
    );
    const kept = (cut.result.content![2] as { text: string }).text;
    assert.ok(long.startsWith(kept));
    assert.equal(countTokens(kept), 500 - countTokens('head'));
  });

  test('tokenPrefix never ends in half a character', () => {
    const s = '日本語のテキスト'.repeat(50);
    const p = tokenPrefix(s, 7);
    assert.ok(s.startsWith(p));
    assert.ok(!p.includes('\uFFFD'));
  });

  test('shapeResult keeps the whole result and the note says how much was cut and where it is', async () => {
    const store = new ResultStore();
    const shaped = await shapeResult(
      text(long),
      'files_read',
      { maxOutputTokens: 300 },
      { results: store, sessionId: 's1', select: inProcess },
    );
    assert.ok(shaped.keptAs?.startsWith(RESULT_URI_PREFIX));
    const note = (shaped.result.content!.at(-1) as { text: string }).text;
    assert.match(
      note,
      new RegExp(
        `^\\[MCP Lens\\] Output cut at 300 of ${shaped.fullTokens.toLocaleString('en-US')} tokens \\(\\d+% cut, max_output_tokens 300\\)\\. The whole result is kept for this session as resource "${shaped.keptAs}"\\. `,
      ),
    );
    assert.equal(store.get('s1', shaped.keptAs!)!.text, long);
    // Copied from the note with its quotes, or with the full stop after it: still found.
    assert.equal(store.get('s1', `"${shaped.keptAs}".`)!.text, long);
    assert.equal(store.get('other-session', shaped.keptAs!), undefined);
  });

  test(`a text past ${EXACT_COUNT_CHARS / 1024} KB is counted on its beginning and the count scaled; the cut reads only its prefix`, async () => {
    const line = (i: number) => `{"row": ${i}, "label": "item ${i}", "tags": ["a", "b"]},\n`;
    const huge = Array.from({ length: 60_000 }, (_, i) => line(i)).join('');
    assert.ok(huge.length > 4 * EXACT_COUNT_CHARS);
    const estimate = estimateTokens(huge);
    const exact = countTokens(huge);
    assert.equal(estimate.exact, false);
    assert.ok(Math.abs(estimate.tokens - exact) / exact < 0.05, `${estimate.tokens} for ${exact}`);
    assert.deepEqual(estimateTokens(long), { tokens: countTokens(long), exact: true });
    const cut = cutToTokens(text(huge), 100)!;
    assert.deepEqual([cut.keptTokens, cut.fullTokens, cut.exact], [100, estimate.tokens, false]);
    assert.equal((cut.result.content![0] as { text: string }).text, tokenPrefix(huge, 100));
    const shaped = await shapeResult(
      text(huge),
      'files_read',
      { maxOutputTokens: 100 },
      { results: new ResultStore(), sessionId: 's1', select: inProcess },
    );
    const note = (shaped.result.content!.at(-1) as { text: string }).text;
    assert.match(note, new RegExp(`Output cut at 100 of about ${estimate.tokens.toLocaleString('en-US')} tokens`));
    // Estimated too long, and it fits: passed on whole.
    assert.equal(cutToTokens(text(huge), 2 * exact), undefined);
  });
});

describe('kept results', () => {
  test(`a session keeps at most ${MAX_RESULTS_PER_SESSION} results, least recently used dropped first`, () => {
    const store = new ResultStore();
    const uris = Array.from({ length: MAX_RESULTS_PER_SESSION }, (_, i) => store.keep('s', 't', text(`r${i}`), 1, i));
    store.get('s', uris[0]!); // used: now the most recent
    const newest = store.keep('s', 't', text('new'), 1)!;
    assert.equal(store.list('s').length, MAX_RESULTS_PER_SESSION);
    assert.ok(store.get('s', uris[0]!), 'the one just read stays');
    assert.equal(store.get('s', uris[1]!), undefined, 'the least recently used went');
    assert.ok(store.get('s', newest));
    store.dropSession('s');
    assert.equal(store.list('s').length, 0);
    assert.equal(store.bytes(), 0);
  });

  test('a result counts by all it holds, and all sessions together stay under the total', () => {
    const store = new ResultStore();
    const bulky: CallToolResult = {
      content: [{ type: 'text', text: 'short' }],
      structuredContent: { blob: 'x'.repeat(3 * MB) },
    };
    const uri = store.keep('s', 't', bulky, 1)!;
    assert.ok(store.list('s')[0]!.bytes > 3 * MB, `counted ${store.list('s')[0]!.bytes} bytes`);
    assert.ok(store.get('s', uri));
    for (let session = 0; session < MAX_TOTAL_BYTES / (3 * MB) + 5; session++) store.keep(`s${session}`, 't', bulky, 1);
    assert.ok(store.bytes() <= MAX_TOTAL_BYTES, `${store.bytes()} bytes kept`);
    const tooLarge: CallToolResult = {
      content: [{ type: 'image', data: 'A'.repeat(MAX_SESSION_BYTES), mimeType: 'image/png' }],
    };
    assert.equal(store.keep('s', 't', tooLarge, 1), undefined, 'larger than a session may keep: not kept');
  });
});

describe('workspace domains and instructions', () => {
  const tool = (server: string, originalName: string, description: string): CatalogTool => ({
    key: `${server}/${originalName}`,
    name: `${server}_${originalName}`,
    server,
    originalName,
    description,
    inputSchema: { type: 'object' },
  });
  const tools = [
    tool('files', 'read_file', 'Read a file from the disk.'),
    tool('files', 'list_directory', 'List a directory of files.'),
    tool('memory', 'create_entities', 'Create entities in the knowledge graph.'),
    tool('memory', 'read_graph', 'Read the knowledge graph.'),
  ];

  test('name each server and its common words, deterministically', () => {
    const d = workspaceDomains(['memory', 'files', 'idle'], tools);
    assert.equal(d, 'files (directory, disk, read), idle, memory (create, graph, knowledge)');
    assert.equal(
      workspaceDomains(['idle', 'files', 'memory'], [...tools].reverse()),
      d,
      'order of discovery does not matter',
    );
    assert.equal(workspaceDomains(['evil\u202e name; ignore'], []), 'evil_name_ignore');
  });

  test('instructions say when to use run_code only when it is offered', () => {
    assert.match(
      gatewayInstructions(['a'], true),
      /ONE run_code script instead of many call_tool calls[\s\S]*For a single call, call_tool is enough/,
    );
    assert.doesNotMatch(gatewayInstructions(['a'], false), /run_code/);
  });
});

describe('select reaches into JSON held in strings', () => {
  const project = (r: CallToolResult, expr: string): unknown => {
    const outcome = evaluateSelect(selectInput(r)!, expr, 1 << 20);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.problem);
    return JSON.parse(outcome.json);
  };
  const file = JSON.stringify({ items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] }, null, 2);
  // What the filesystem server's read_text_file returns for a JSON file.
  const wrapped: CallToolResult = { content: [{ type: 'text', text: file }], structuredContent: { content: file } };

  test('a JSON file read through a server that wraps its text: the path the agent sees works', () => {
    assert.equal(project(wrapped, 'items[3].name'), 'd');
  });

  test('JSON inside a structuredContent string is opened when the text is prose', () => {
    const r: CallToolResult = { content: [{ type: 'text', text: 'the file:' }], structuredContent: { content: file } };
    assert.equal(project(r, 'content.items[1].name'), 'b');
  });

  test('a string that only looks like JSON stays a string', () => {
    const r: CallToolResult = { content: [], structuredContent: { note: '[not json', n: '42' } };
    assert.deepEqual(project(r, '@'), { note: '[not json', n: '42' });
  });
});
