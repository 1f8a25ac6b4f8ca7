/**
 * Unbounded meta-tool arguments (issue #23): find_tools' `keywords` had no cap, and 80 KB of
 * them took 6.7 s of query analysis on the main thread, blocking every other client; `server`
 * and `tool_name` had none either. Every string argument of every meta-tool now has a
 * `maxLength` (arrays a `maxItems`) in its schema (gateway/metaToolDefs.ts), and each call is
 * validated against that schema before it reaches the Lens. An over-long argument is refused
 * at once, through a real SDK client over HTTP, with an error that names the meta-tool and the
 * argument and does not carry the value back.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startGatewayWorld, text, type GatewayWorld } from '../faults/faultWorld';
import { EVERYTHING } from '../fixtures/gatewayLens';
import {
  MAX_KEYWORDS,
  MAX_KEYWORD_CHARS,
  MAX_NAME_CHARS,
  MAX_QUERY_CHARS,
  RUN_CODE_LIMITS,
} from '../../server/src/gateway/metaToolArgs';
import { metaToolDefinitions } from '../../server/src/gateway/metaToolDefs';
import { MAX_SELECT_CHARS } from '../../server/src/core/resultShaping';

/** A value that would show if echoed: a marker repeated. */
const long = (n: number) => 'Zq'.repeat(Math.ceil(n / 2)).slice(0, n);
/** Far past each cap, well under the HTTP body limit (4 MB). */
const HUGE = 1_000_000;

let g: GatewayWorld;
before(async () => {
  g = await startGatewayWorld({ everything: EVERYTHING });
});
after(async () => {
  await g?.close();
});

type Abuse = { tool: string; args: Record<string, unknown>; argument: string; says: RegExp };

function abuses(sum: string): Abuse[] {
  return [
    {
      tool: 'find_tools',
      args: { query: long(HUGE) },
      argument: '"query"',
      says: new RegExp(`longer than ${MAX_QUERY_CHARS} characters`),
    },
    {
      tool: 'find_tools',
      args: { query: 'add', keywords: [long(HUGE)] },
      argument: '"keywords[0]"',
      says: new RegExp(`longer than ${MAX_KEYWORD_CHARS}`),
    },
    {
      tool: 'find_tools',
      args: { query: 'add', keywords: Array.from({ length: 20_000 }, () => 'sum') },
      argument: '"keywords"',
      says: new RegExp(`more than ${MAX_KEYWORDS} items`),
    },
    {
      tool: 'find_tools',
      args: { query: 'add', server: long(HUGE) },
      argument: '"server"',
      says: new RegExp(`longer than ${MAX_NAME_CHARS}`),
    },
    {
      tool: 'call_tool',
      args: { tool_name: long(HUGE) },
      argument: '"tool_name"',
      says: new RegExp(`longer than ${MAX_NAME_CHARS}`),
    },
    {
      tool: 'call_tool',
      args: { tool_name: sum, arguments: { a: 1, b: 2 }, select: long(HUGE) },
      argument: '"select"',
      says: new RegExp(`longer than ${MAX_SELECT_CHARS}`),
    },
    {
      tool: 'get_tool_schema',
      args: { tool_name: long(HUGE) },
      argument: '"tool_name"',
      says: new RegExp(`longer than ${MAX_NAME_CHARS}`),
    },
    {
      tool: 'run_code',
      args: { code: long(3 * HUGE) },
      argument: '"code"',
      says: new RegExp(`longer than ${RUN_CODE_LIMITS.maxCodeChars}`),
    },
    // An unknown argument's name is shown, cut, so a typo can be seen; its value never.
    {
      tool: 'find_tools',
      args: { query: 'add', [long(HUGE)]: 'x' },
      argument: 'has no argument "ZqZq',
      says: /…\[truncated\]" \(its arguments: query, keywords, server, limit, input_format\)/,
    },
  ];
}

test('every string argument of every meta-tool has a cap in its schema, every array a maxItems', () => {
  const unbounded: string[] = [];
  const visit = (tool: string, path: string, s: Record<string, unknown>) => {
    if (s.type === 'string' && s.enum === undefined && typeof s.maxLength !== 'number')
      unbounded.push(`${tool} ${path}`);
    if (s.type === 'array' && typeof s.maxItems !== 'number') unbounded.push(`${tool} ${path}`);
    if (s.items) visit(tool, `${path}[]`, s.items as Record<string, unknown>);
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>))
      visit(tool, `${path}.${k}`, v);
  };
  for (const t of metaToolDefinitions({ defaultLimit: 8, codeMode: true, domains: '' }))
    visit(t.name, '', t.inputSchema as Record<string, unknown>);
  assert.deepEqual(unbounded, []);
});

test('over-long arguments are refused at once, naming the meta-tool and the argument, never echoing the value', async () => {
  const sum = g.world.lens.tools().find((t) => t.originalName === 'get-sum')!.name;
  for (const a of abuses(sum)) {
    const started = performance.now();
    const r: CallToolResult = await g.call(a.tool, a.args);
    const ms = performance.now() - started;
    const said = text(r);
    assert.equal(r.isError, true, `${a.tool} ${a.argument}: ${said.slice(0, 200)}`);
    assert.ok(said.startsWith(`${a.tool}: `), said.slice(0, 200));
    assert.ok(said.includes(a.argument), said.slice(0, 200));
    assert.match(said, a.says);
    assert.ok(said.length < 400, `the error is short, not the value: ${said.length} characters`);
    assert.ok(!said.includes('Zq'.repeat(40)), `the value came back: ${said.slice(0, 200)}`);
    // The body itself takes time to send and parse; the check must add nothing like the 6.7 s of before.
    assert.ok(ms < 5000, `${a.tool} ${a.argument} took ${Math.round(ms)} ms`);
  }
  await g.healthy();
});

test('arguments at the caps still work', async () => {
  const r = await g.call('find_tools', {
    query: `add two numbers ${'x'.repeat(MAX_QUERY_CHARS - 20)}`,
    keywords: Array.from({ length: MAX_KEYWORDS }, (_, i) => (i === 0 ? 'sum' : 'k'.repeat(MAX_KEYWORD_CHARS))),
  });
  assert.ok(!r.isError, text(r).slice(0, 300));
});

test('wrong types are refused with what the schema wants, and a missing argument with what it is for', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['find_tools', {}, 'find_tools: needs "query" (The task in plain words, e.g. "open a pull request").'],
    ['find_tools', { query: 'add', keywords: 'sum' }, 'find_tools: "keywords" must be an array.'],
    ['find_tools', { query: 'add', limit: 0 }, 'find_tools: "limit" must be at least 1.'],
    [
      'find_tools',
      { query: 'add', input_format: 'yaml' },
      'find_tools: "input_format" must be one of "schema", "signature".',
    ],
    ['call_tool', { tool_name: 'x', arguments: [1, 2] }, 'call_tool: "arguments" must be an object.'],
    ['get_tool_schema', { tool_name: 7 }, 'get_tool_schema: "tool_name" must be a string.'],
    ['run_code', { code: 'return 1', timeout_ms: 10 }, 'run_code: "timeout_ms" must be at least 1000.'],
  ];
  for (const [tool, args, want] of cases) assert.equal(text(await g.call(tool, args)), want);
});
