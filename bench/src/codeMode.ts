/**
 * Code mode figures, on the real test servers (server-everything, -filesystem, -memory)
 * behind a real LensApp and Gateway, driven by an SDK client over an in-memory transport:
 *
 * 1. Tokens the model sees for one chained task — read three files, extract a value from
 *    each, add them (everything's get-sum), store a summary in memory, return it — counted
 *    with o200k_base as: the tool definitions as a model API receives them (name, description,
 *    input schema; titles, annotations, output schemas and _meta stay with the client) listed
 *    once, every call the model writes (name + arguments) and every result it reads:
 *      (a) every tool listed directly, one call per step;
 *      (b) find_tools + call_tool per step (the meta-tools listed);
 *      (c) find_tools (signatures) + ONE run_code.
 *    (b) and (c) search with the same limit: find_tools's default, and both again with
 *    `limit: 3` and `limit: 8`, as an agent that asks for fewer or more hits would.
 *    Per-turn repetition of the prompt is not counted (clients cache it), the same for all three.
 * 2. run_code's overhead per inner call over call_tool's (client-observed medians).
 * 3. Sandbox start time (fresh WebAssembly instance + runtime + API), cold and warm.
 *
 *   node --import tsx bench/src/codeMode.ts [--json] [--write bench-results.md]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Lens } from '../../server/src/app/lens';
import { countTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import { resultText } from '../../server/src/core/resultShaping';
import { runSandboxed } from '../../server/src/adapters/sandbox/quickjsSandbox';
import { openBenchGateway } from './benchGateway';
import { writeSection } from './markdownSection';

export interface CodeModeReport {
  task: string;
  tokens: {
    allTools: Breakdown;
    /** find_tools with its default limit. */
    findAndCall: Breakdown;
    runCode: Breakdown;
    /** The same two with other limits (3 and 8). */
    otherLimits: { limit: number; findAndCall: Breakdown; runCode: Breakdown }[];
  };
  /** find_tools's default limit, as (b) and (c) used it. */
  defaultLimit: number;
  overhead: {
    calls: number;
    callToolMedianMs: number;
    innerCallMedianMs: number;
    overheadMedianMs: number;
    sandboxCrossingMedianMs: number;
  };
  sandboxStart: { coldMs: number; warmMedianMs: number; warmP90Ms: number; runs: number };
}

interface Breakdown {
  definitions: number;
  calls: number;
  results: number;
  total: number;
  steps: number;
}

class Transcript {
  private readonly b: Breakdown = { definitions: 0, calls: 0, results: 0, total: 0, steps: 0 };

  constructor(definitions: readonly Tool[]) {
    this.b.definitions = modelViewTokens(definitions);
  }

  /** The model writes a call and reads its result; `written` is the call as the model writes it, when that differs. */
  async step(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    written?: { name: string; arguments: unknown },
  ): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`bench step ${name} failed: ${resultText(result)}`);
    this.b.calls += countTokens(JSON.stringify(written ?? { name, arguments: args }));
    this.b.results += countTokens(resultText(result));
    this.b.steps++;
    return result;
  }

  done(): Breakdown {
    return { ...this.b, total: this.b.definitions + this.b.calls + this.b.results };
  }
}

/** Tokens of tool definitions as a model API receives them: name, description, input schema. */
function modelViewTokens(tools: readonly Tool[]): number {
  return countTokens(
    JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema }))),
  );
}

/** A ~100-line build report with one `total=` line: what "extract a value from each" reads. */
function report(name: string, total: number): string {
  const lines = [`# Build report ${name}`, ''];
  for (let i = 0; i < 100; i++)
    lines.push(
      `step ${String(i).padStart(3, '0')}: compiled module-${name}-${i}.ts in ${(i * 37) % 900} ms, ${(i * 13) % 40} warnings`,
    );
  lines.splice(60, 0, `total=${total}`);
  return lines.join('\n');
}

/** The limits (b) and (c) also run with, beside the default. */
const OTHER_LIMITS = [3, 8];

const FILES: [string, number][] = [
  ['a.txt', 12],
  ['b.txt', 30],
  ['c.txt', 100],
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)]! * 1000) / 1000 : 0;
}

function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)]! * 1000) / 1000 : 0;
}

export async function measureCodeMode(root: string): Promise<CodeModeReport> {
  // First, so the cold figure includes compiling the wasm (once per process).
  const sandboxStart = await measureSandboxStart();
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-codemode-'));
  const nm = join(root, 'node_modules/@modelcontextprotocol');
  const config = join(ws, 'mcp.json');
  for (const [f, total] of FILES) writeFileSync(join(ws, f), report(f, total));
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        everything: { command: process.execPath, args: [join(nm, 'server-everything/dist/index.js'), 'stdio'] },
        files: { command: process.execPath, args: [join(nm, 'server-filesystem/dist/index.js'), ws] },
        memory: {
          command: process.execPath,
          args: [join(nm, 'server-memory/dist/index.js')],
          env: { MEMORY_FILE_PATH: join(ws, 'memory.jsonl') },
        },
      },
    }),
  );
  const { lens, client, close } = await openBenchGateway(ws, config, { usage: { enabled: false } });
  const toolName = (server: string, original: string) =>
    lens.tools().find((t) => t.server === server && t.originalName === original)!.name;
  try {
    const meta = (await client.listTools()).tools;
    const tokens = {
      allTools: await allToolsTranscript(client, lens, ws, toolName),
      findAndCall: await findAndCallTranscript(client, meta, ws, 'b'),
      runCode: await runCodeTranscript(client, meta, ws, 'c'),
      otherLimits: [] as CodeModeReport['tokens']['otherLimits'],
    };
    for (const limit of OTHER_LIMITS) {
      tokens.otherLimits.push({
        limit,
        findAndCall: await findAndCallTranscript(client, meta, ws, `b${limit}`, limit),
        runCode: await runCodeTranscript(client, meta, ws, `c${limit}`, limit),
      });
    }
    const overhead = await measureOverhead(client, toolName('everything', 'get-sum'));
    const task =
      'read 3 files (~100 lines each), extract total=N from each, add them with get-sum, store a summary in memory, return it';
    return { task, tokens, defaultLimit: lens.settings().search.defaultLimit, overhead, sandboxStart };
  } finally {
    await close();
    rmSync(ws, { recursive: true, force: true });
  }
}

/** (a) Every upstream tool listed as its server lists it; the model calls each tool itself. */
async function allToolsTranscript(
  client: Client,
  lens: Lens,
  ws: string,
  toolName: (s: string, o: string) => string,
): Promise<Breakdown> {
  // What a client connected to the three servers directly carries: each server's tools/list.
  const listed = lens.tools().map((t) => ({
    name: t.originalName,
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
  const t = new Transcript(listed as Tool[]);
  const totals: number[] = [];
  // Made through call_tool (the same upstream result text), counted as the model writes a direct call.
  const direct = (server: string, original: string, args: Record<string, unknown>) =>
    t.step(
      client,
      'call_tool',
      { tool_name: toolName(server, original), arguments: args, max_output_tokens: 1_000_000 },
      { name: original, arguments: args },
    );
  for (const [f] of FILES) {
    const r = await direct('files', 'read_text_file', { path: join(ws, f) });
    totals.push(Number(/total=(\d+)/.exec(resultText(r))![1]));
  }
  const sum = await direct('everything', 'get-sum', { a: totals[0]!, b: totals[1]! + totals[2]! });
  const total = Number(/is (\d+)/.exec(resultText(sum))![1]);
  await direct('memory', 'create_entities', {
    entities: [{ name: 'file-totals', entityType: 'summary', observations: [`total=${total}`] }],
  });
  return t.done();
}

/** (b) find_tools (with `limit`, else its default), then call_tool, for each step; `run` names what it stores. */
async function findAndCallTranscript(
  client: Client,
  meta: Tool[],
  ws: string,
  run: string,
  limit?: number,
): Promise<Breakdown> {
  const t = new Transcript(meta);
  const find = async (query: string, re: RegExp) => {
    const r = await t.step(client, 'find_tools', { query, ...(limit !== undefined && { limit }) });
    const m = (r.structuredContent as { matches: { name: string }[] }).matches.find((x) => re.test(x.name));
    if (!m) throw new Error(`bench: find_tools "${query}" did not find ${re}`);
    return m.name;
  };
  const read = await find('read a text file', /read_text_file$/);
  const totals: number[] = [];
  for (const [f] of FILES) {
    const r = await t.step(client, 'call_tool', { tool_name: read, arguments: { path: join(ws, f) } });
    totals.push(Number(/total=(\d+)/.exec(resultText(r))![1]));
  }
  const sumTool = await find('add two numbers', /get-sum$/);
  const sum = await t.step(client, 'call_tool', {
    tool_name: sumTool,
    arguments: { a: totals[0], b: totals[1]! + totals[2]! },
  });
  const total = Number(/is (\d+)/.exec(resultText(sum))![1]);
  const create = await find('store entities in the knowledge graph memory', /create_entities$/);
  await t.step(client, 'call_tool', {
    tool_name: create,
    arguments: { entities: [{ name: `file-totals-${run}`, entityType: 'summary', observations: [`total=${total}`] }] },
  });
  return t.done();
}

/** (c) find_tools with signatures for the three capabilities (`limit` as in (b)), then ONE run_code. */
async function runCodeTranscript(
  client: Client,
  meta: Tool[],
  ws: string,
  run: string,
  limit?: number,
): Promise<Breakdown> {
  const t = new Transcript(meta);
  const find = async (query: string, re: RegExp) => {
    const r = await t.step(client, 'find_tools', {
      query,
      input_format: 'signature',
      ...(limit !== undefined && { limit }),
    });
    const m = (r.structuredContent as { matches: { name: string }[] }).matches.find((x) => re.test(x.name));
    if (!m) throw new Error(`bench: find_tools "${query}" did not find ${re}`);
    return m.name;
  };
  const read = await find('read a text file', /read_text_file$/);
  const sum = await find('add two numbers', /get-sum$/);
  const create = await find('store entities in the knowledge graph memory', /create_entities$/);
  const code = [
    'const totals = [];',
    `for (const f of ["a.txt", "b.txt", "c.txt"]) {`,
    `  const r = await call_tool("${read}", { path: ${JSON.stringify(ws)} + "/" + f });`,
    '  totals.push(Number(/total=(\\d+)/.exec(r.content)[1]));',
    '}',
    `const said = await call_tool("${sum}", { a: totals[0], b: totals[1] + totals[2] });`,
    'const total = Number(/is (\\d+)/.exec(said)[1]);',
    `await call_tool("${create}", { entities: [{ name: "file-totals-${run}", entityType: "summary", observations: ["total=" + total] }] });`,
    'return { totals, total };',
  ].join('\n');
  const r = await t.step(client, 'run_code', { code });
  const value = JSON.parse(resultText(r)) as { total: number };
  if (value.total !== 142) throw new Error(`bench: run_code returned ${resultText(r)}`);
  return t.done();
}

/**
 * One get-sum as its own call_tool (timed by the client) and inside a run_code script (timed
 * by the script around its own calls: Date has 1 ms resolution, so over 50 calls per round).
 */
async function measureOverhead(client: Client, sum: string): Promise<CodeModeReport['overhead']> {
  const calls = 50;
  const rounds = 15;
  const direct: number[] = [];
  const inner: number[] = [];
  const call = () => client.callTool({ name: 'call_tool', arguments: { tool_name: sum, arguments: { a: 1, b: 2 } } });
  const script = `const t0 = Date.now(); for (let i = 0; i < ${calls}; i++) await call_tool("${sum}", { a: i, b: 2 }); return (Date.now() - t0) / ${calls};`;
  const perInner = async () =>
    Number(resultText((await client.callTool({ name: 'run_code', arguments: { code: script } })) as CallToolResult));
  for (let i = 0; i < 10; i++) await call(); // warm both paths
  await perInner();
  for (let r = 0; r < rounds; r++) {
    // Interleaved, so both see the same machine load.
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await call();
      direct.push(performance.now() - t);
    }
    inner.push(await perInner());
  }
  const crossing = await sandboxCrossing();
  const callToolMedianMs = median(direct);
  const innerCallMedianMs = median(inner);
  return {
    calls: calls * rounds,
    callToolMedianMs,
    innerCallMedianMs,
    overheadMedianMs: Math.round((innerCallMedianMs - callToolMedianMs) * 1000) / 1000,
    sandboxCrossingMedianMs: crossing,
  };
}

const LIMITS = {
  wallTimeMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 100,
  maxOutputChars: 1 << 20,
  maxLogChars: 1 << 16,
  maxArgsChars: 1 << 20,
};

/** The sandbox's own cost per call: a host that answers at once, no upstream. */
async function sandboxCrossing(): Promise<number> {
  const host = { toolNames: ['t'], callTool: async () => ({ sum: 3 }), readResult: async () => null };
  const per: number[] = [];
  for (let r = 0; r < 15; r++) {
    const empty = await runSandboxed('for (let i = 0; i < 0; i++) await call_tool("t", {}); return 0', host, LIMITS);
    const full = await runSandboxed(
      'for (let i = 0; i < 100; i++) await call_tool("t", { i }); return 100',
      host,
      LIMITS,
    );
    per.push(Math.max(0, full.durationMs - full.startMs - (empty.durationMs - empty.startMs)) / 100);
  }
  return median(per);
}

async function measureSandboxStart(): Promise<CodeModeReport['sandboxStart']> {
  const host = {
    toolNames: Array.from({ length: 400 }, (_, i) => `server_tool_${i}`),
    callTool: async () => null,
    readResult: async () => null,
  };
  // The first run in a process also compiles the wasm: the cold figure.
  const cold = await runSandboxed('return 1', host, LIMITS);
  const warm: number[] = [];
  for (let i = 0; i < 50; i++) warm.push((await runSandboxed('return 1', host, LIMITS)).startMs);
  return {
    coldMs: Math.round(cold.startMs * 10) / 10,
    warmMedianMs: median(warm),
    warmP90Ms: p90(warm),
    runs: warm.length,
  };
}

export function formatCodeModeMarkdown(r: CodeModeReport): string {
  const row = (label: string, b: Breakdown) =>
    `| ${label} | ${b.steps} | ${b.definitions} | ${b.calls} | ${b.results} | **${b.total}** |`;
  return [
    '## Code mode (run_code) and result shaping',
    '',
    `Task on the real servers (everything, filesystem, memory): ${r.task}. o200k tokens the model sees: tool definitions as a model API receives them (name, description, input schema), listed once; the calls it writes; the results it reads.`,
    '',
    '| strategy | model steps | definitions | calls | results | total |',
    '|---|---:|---:|---:|---:|---:|',
    row('(a) every tool listed, one call per step', r.tokens.allTools),
    row(`(b) find_tools + call_tool per step (default limit, ${r.defaultLimit} hits)`, r.tokens.findAndCall),
    row(`(c) find_tools (signatures, default limit, ${r.defaultLimit} hits) + one run_code`, r.tokens.runCode),
    ...r.tokens.otherLimits.flatMap((o) => [
      row(`(b) with find_tools \`limit: ${o.limit}\``, o.findAndCall),
      row(`(c) with find_tools \`limit: ${o.limit}\``, o.runCode),
    ]),
    '',
    `(b) and (c) search with the same limit in each pair of rows. Goal for (c): at most 2,000 tokens at the default limit — ${r.tokens.runCode.total <= 2000 ? 'met' : 'not met'} (${r.tokens.runCode.total}; ${r.tokens.otherLimits.map((o) => `limit ${o.limit}: ${o.runCode.total}`).join(', ')}).`,
    '',
    `run_code vs call_tool over ${r.overhead.calls} calls of get-sum each way: call_tool (timed by the client) median ${r.overhead.callToolMedianMs} ms, a call inside a script (timed by the script, median of rounds of 50) ${r.overhead.innerCallMedianMs} ms: overhead ${r.overhead.overheadMedianMs} ms per inner call. The sandbox boundary alone (a host that answers at once) costs ${r.overhead.sandboxCrossingMedianMs} ms per call.`,
    '',
    `Sandbox start (fresh WebAssembly instance, runtime, API with 400 tool names): cold ${r.sandboxStart.coldMs} ms (compiles the wasm once per process), then median ${r.sandboxStart.warmMedianMs} ms, p90 ${r.sandboxStart.warmP90Ms} ms over ${r.sandboxStart.runs} runs.`,
    '',
    '_`node --import tsx bench/src/codeMode.ts` (part of `npm run bench`)._',
  ].join('\n');
}

if (require.main === module) {
  useTokenCounter(o200kTokenizer);
  const argv = process.argv.slice(2);
  const w = argv.indexOf('--write');
  measureCodeMode(resolve(__dirname, '../..')).then(
    (r) => {
      const md = formatCodeModeMarkdown(r);
      process.stdout.write(argv.includes('--json') ? `${JSON.stringify(r, null, 2)}\n` : `${md}\n`);
      if (w >= 0) writeSection(resolve(argv[w + 1] ?? 'bench-results.md'), 'code-mode', md);
    },
    (err: unknown) => {
      process.stderr.write(`code mode bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
