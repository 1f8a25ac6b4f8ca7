// The meta-tools' arguments, declared once (server/src/gateway/metaToolArgs.ts): the JSON Schema
// clients see is derived from the schema the gateway enforces, so both accept exactly the same
// arguments; and run_code's call_tool() is checked as call_tool's arguments are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { metaToolDefinitions } from '../../server/src/gateway/metaToolDefs';
import {
  CallToolArgs,
  GetToolSchemaArgs,
  ListServersArgs,
  RunCodeArgs,
  ScriptCallArgs,
  findToolsArgs,
  parseArgs,
} from '../../server/src/gateway/metaToolArgs';

const SCHEMAS = {
  find_tools: findToolsArgs(5),
  call_tool: CallToolArgs,
  run_code: RunCodeArgs,
  get_tool_schema: GetToolSchemaArgs,
  list_servers: ListServersArgs,
};

const CASES: Record<keyof typeof SCHEMAS, unknown[]> = {
  find_tools: [
    { query: 'add' },
    { query: 'add', keywords: ['sum'], server: 'math', limit: 3, input_format: 'signature' },
    {},
    { query: '' },
    { query: 'x'.repeat(2001) },
    { query: 'add', keywords: 'sum' },
    { query: 'add', keywords: Array(33).fill('k') },
    { query: 'add', limit: 0 },
    { query: 'add', limit: 51 },
    { query: 'add', limit: 2.5 },
    { query: 'add', input_format: 'yaml' },
    { query: 'add', extra: 1 },
    [],
    'add',
  ],
  call_tool: [
    { tool_name: 'x' },
    { tool_name: 'x', arguments: { a: 1 }, select: 'a', max_output_tokens: 100 },
    { tool_name: 'x', arguments: [1] },
    { tool_name: 'x', max_output_tokens: 99 },
    { tool_name: 'x', max_output_tokens: 1_000_001 },
    { tool_name: 'x', select: 's'.repeat(2001) },
    { arguments: {} },
  ],
  run_code: [
    { code: 'return 1' },
    { code: 'return 1', timeout_ms: 1000 },
    { code: '' },
    { code: 'return 1', timeout_ms: 999 },
    { code: 'return 1', timeout_ms: 1500.5 },
  ],
  get_tool_schema: [{ tool_name: 'x' }, { tool_name: 7 }, { tool_name: 'x'.repeat(257) }],
  list_servers: [{}, { any: 1 }],
};

test('each advertised inputSchema is draft-07 without $schema, and accepts exactly what the gateway accepts', () => {
  const ajv = new Ajv({ strict: false });
  const advertised = new Map(
    metaToolDefinitions({ defaultLimit: 5, codeMode: true, domains: '' }).map((t) => [t.name, t.inputSchema]),
  );
  assert.deepEqual([...advertised.keys()].sort(), Object.keys(SCHEMAS).sort());
  for (const [tool, schema] of Object.entries(SCHEMAS)) {
    const json = advertised.get(tool)!;
    assert.equal(json.$schema, undefined, tool);
    assert.equal(json.type, 'object', tool);
    assert.equal(json.additionalProperties, false, tool);
    const validate = ajv.compile(json);
    for (const args of CASES[tool as keyof typeof SCHEMAS]) {
      assert.equal(
        validate(args),
        parseArgs(tool, schema, args).ok,
        `${tool} ${JSON.stringify(args).slice(0, 80)}: the advertised schema and the check disagree`,
      );
    }
  }
});

test("run_code's call_tool(name, args, options) is checked as call_tool's arguments, options it does not know ignored", () => {
  const call = (args: unknown, options: Record<string, unknown> = {}) =>
    parseArgs('call_tool("x")', ScriptCallArgs, { ...options, tool_name: 'x', arguments: args });
  assert.deepEqual(call({ a: 1 }, { select: 'a', other: true }), {
    ok: true,
    args: { tool_name: 'x', arguments: { a: 1 }, select: 'a' },
  });
  assert.deepEqual(call([1, 2]), { ok: false, problem: 'call_tool("x"): "arguments" must be an object.' });
  assert.deepEqual(call({}, { max_output_tokens: 5 }), {
    ok: false,
    problem: 'call_tool("x"): "max_output_tokens" must be at least 100.',
  });
  const bad = call({}, { select: 'items[.' });
  assert.ok(!bad.ok && /"select" is not a valid JMESPath expression/.test(bad.problem), JSON.stringify(bad));
});

test('problems name the argument and never carry its value; many are counted, not listed', () => {
  const secret = 'Zq'.repeat(5000);
  const extra = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, secret]));
  const r = parseArgs('find_tools', SCHEMAS.find_tools, { query: secret, keywords: [secret], ...extra });
  assert.ok(!r.ok);
  assert.ok(!r.problem.includes('ZqZq'), r.problem.slice(0, 200));
  assert.match(r.problem, /^find_tools: "query" is longer than 2000 characters, the limit; /);
  assert.match(r.problem, /; and 17 more\.$/);
  assert.ok(r.problem.length < 600, `${r.problem.length} characters`);
});
