/**
 * Code mode and result shaping through the real gateway, in front of real upstreams
 * (server-everything, server-filesystem, server-memory and the crash fixture): over
 * streamable HTTP in-process, and over stdio through `mcp-lens serve` as a real process.
 * Signatures, select and max_output_tokens with kept results, run_code chaining three
 * servers, and every sandbox escape and limit the issue names.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import {
  CRASH,
  EVERYTHING,
  MEMORY,
  filesystem,
  makeWorkspace,
  serveOverStdio,
  startLens,
  type LensWorld,
  type TestWorkspace,
} from '../fixtures/gatewayLens';
import { findToolsWhenStarted } from '../fixtures/agentClient';
import { CLOSE_SHARE } from '../../server/src/core/rankConfidence';

interface Match {
  /** `<server>_<tool>`: the signature format names no server apart. */
  name: string;
  input?: string;
}

/** An agent's first step: find the tools for each part of the task, as signatures. */
async function findAll(client: Client, queries: string[]): Promise<Match[]> {
  const out: Match[] = [];
  for (const query of queries) {
    const r = await client.callTool({ name: 'find_tools', arguments: { query, input_format: 'signature', limit: 5 } });
    assert.ok(!r.isError, text(r));
    out.push(...(r.structuredContent as { matches: Match[] }).matches);
  }
  return out;
}

/** The chained task: read three files, extract a value from each, add them, store a summary in memory, return it. */
function chainScript(dir: string, read: string, sum: string, create: string, graph: string): string {
  return `
    const totals = [];
    for (const f of ["a.txt", "b.txt", "c.txt"]) {
      const file = await tools[${JSON.stringify(read)}]({ path: ${JSON.stringify(dir)} + "/" + f });
      totals.push(Number(/total=(\\d+)/.exec(file.content)[1]));
    }
    const said = await call_tool(${JSON.stringify(sum)}, { a: totals[0], b: totals[1] + totals[2] });
    const total = Number(/is (\\d+)/.exec(said)[1]);
    await call_tool(${JSON.stringify(create)}, { entities: [{ name: "file-totals", entityType: "summary", observations: ["total=" + total] }] });
    const stored = await call_tool(${JSON.stringify(graph)}, {}, { select: "entities[?name=='file-totals'].observations[0] | [0]" });
    console.log("totals", totals);
    return { totals, total, stored };`;
}

const TOKEN = 'code-mode-' + Math.random().toString(36).slice(2);

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('code mode through the gateway', () => {
  let world: LensWorld;
  let http: GatewayHttpServer;
  let url: string;
  let client: Client;
  let files: string;
  const name = (server: string, original: string) =>
    world.lens.tools().find((t) => t.server === server && t.originalName === original)!.name;

  async function connect(): Promise<Client> {
    const c = new Client({ name: 'code-mode-test', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return c;
  }

  before(async () => {
    files = mkdtempSync(join(tmpdir(), 'mcp-lens-code-files-'));
    for (const [f, v] of [
      ['a.txt', 'total=12'],
      ['b.txt', 'total=30'],
      ['c.txt', 'total=100'],
    ])
      writeFileSync(join(files, f!), v!);
    world = await startLens(
      {
        everything: EVERYTHING,
        files: filesystem(files),
        memory: { ...MEMORY, env: { MEMORY_FILE_PATH: join(files, 'memory.jsonl') } },
        crash: CRASH,
      },
      { exclude: ['everything/get-env'] },
    );
    http = new GatewayHttpServer({ lens: world.lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url } = await http.start());
    client = await connect();
  });

  after(async () => {
    await client?.close();
    await http?.close();
    await world?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('find_tools gives the close matches their input as a signature on request, the far ones a line; get_tool_schema gives the same', async () => {
    const found = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'add two numbers', input_format: 'signature', limit: 5 },
    });
    assert.ok(!found.isError, text(found));
    const matches = (
      found.structuredContent as {
        matches: { name: string; server?: string; description: string; input?: string; input_schema?: unknown }[];
      }
    ).matches;
    assert.equal(matches.length, 5);
    // The scores are not shown in this format; the same search in the schema format shows them.
    const scored = await client.callTool({ name: 'find_tools', arguments: { query: 'add two numbers', limit: 5 } });
    const scores = (scored.structuredContent as { matches: { name: string; score: number }[] }).matches;
    assert.deepEqual(
      scores.map((m) => m.name),
      matches.map((m) => m.name),
    );
    const close = scores.filter((m) => m.score >= CLOSE_SHARE * scores[0]!.score).length;
    assert.ok(close >= 1 && close < 5, `some close, some far: ${JSON.stringify(scores)}`);
    matches.forEach((m, i) => {
      assert.equal(m.input_schema, undefined);
      assert.equal(m.server, undefined, 'the name starts with the server');
      if (i < close) assert.equal(typeof m.input, 'string', `${m.name} is close: it has a signature`);
      else assert.deepEqual(Object.keys(m), ['name', 'description'], `${m.name} is far: a name and a line`);
    });
    const sum = matches.find((m) => m.name === name('everything', 'get-sum'));
    assert.ok(sum, 'get-sum found');
    assert.match(sum.input!, /^\{ a: number \/\* .* \*\/; b: number \/\* .* \*\/ \}$/);
    const schema = await client.callTool({ name: 'get_tool_schema', arguments: { tool_name: sum.name } });
    const def = JSON.parse(text(schema)) as { signature: string };
    assert.equal(def.signature, `${sum.name}(args: ${sum.input}): Promise<unknown>`);
    const bad = await client.callTool({ name: 'find_tools', arguments: { query: 'x', input_format: 'yaml' } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /input_format/);
  });

  it('select projects a JSON result with JMESPath; a bad expression is refused before the call', async () => {
    const create = await client.callTool({
      name: 'call_tool',
      arguments: {
        tool_name: name('memory', 'create_entities'),
        arguments: {
          entities: [
            { name: 'alpha', entityType: 'probe', observations: ['one', 'two'] },
            { name: 'beta', entityType: 'probe', observations: [] },
          ],
        },
      },
    });
    assert.ok(!create.isError, text(create));
    const graph = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: name('memory', 'read_graph'), select: "entities[?entityType=='probe'].name" },
    });
    assert.ok(!graph.isError, text(graph));
    assert.deepEqual(JSON.parse(text(graph)), ['alpha', 'beta']);
    const bad = await client.callTool({
      name: 'call_tool',
      arguments: {
        tool_name: name('memory', 'create_entities'),
        arguments: { entities: [{ name: 'never', entityType: 'x', observations: [] }] },
        select: 'entities[.',
      },
    });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /not a valid JMESPath expression/);
    const names = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: name('memory', 'read_graph'), select: 'entities[].name' },
    });
    assert.ok(!JSON.parse(text(names)).includes('never'), 'the refused call never ran');
    const plain = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: name('everything', 'get-sum'), arguments: { a: 1, b: 2 }, select: 'sum' },
    });
    assert.match(text(plain), /The sum of 1 and 2 is 3\.[\s\S]*select was not applied: the result is plain text/);
  });

  it('cuts a long result to max_output_tokens, keeps it whole as a session resource and points to it', async () => {
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i}: ${'lorem ipsum dolor sit amet '.repeat(2)}`).join(
      '\n',
    );
    writeFileSync(join(files, 'big.txt'), big);
    const r = await client.callTool({
      name: 'call_tool',
      arguments: {
        tool_name: name('files', 'read_text_file'),
        arguments: { path: join(files, 'big.txt') },
        max_output_tokens: 300,
      },
    });
    assert.ok(!r.isError, text(r));
    assert.equal(r.structuredContent, undefined, 'a cut result carries no second full copy');
    const note = (r.content as { text: string }[]).at(-1)!.text;
    const m =
      /Output cut at 300 of (?:about )?([\d,]+) tokens \((\d+)% cut, max_output_tokens 300\)\. The whole result is kept for this session as resource "(mcp-lens:\/\/results\/[0-9a-f]+)"\./.exec(
        note,
      );
    assert.ok(m, note);
    assert.ok(big.startsWith((r.content as { text: string }[])[0]!.text.slice(0, 200)));
    const uri = m[3]!;
    const listed = await client.listResources();
    assert.ok(
      listed.resources.some((x) => x.uri === uri),
      'listed in resources/list',
    );
    const read = await client.readResource({ uri });
    assert.equal((read.contents[0] as { text: string }).text, big, 'nothing lost');
    const other = await connect();
    try {
      await assert.rejects(other.readResource({ uri }), /not kept for this session/);
      assert.ok(!(await other.listResources()).resources.some((x) => x.uri === uri));
    } finally {
      await other.close();
    }
    const stats = http.gateway.stats();
    assert.ok(
      stats.tokens.keptResults!.some((k) => k.uri === uri && k.tool === name('files', 'read_text_file')),
      'visible in the dashboard stats',
    );
    assert.ok(stats.tokens.shaping!.savedTokens > 1000);
    const under = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: name('files', 'read_text_file'), arguments: { path: join(files, 'a.txt') } },
    });
    assert.equal(text(under), 'total=12', 'a small result comes back untouched');
  });

  // The client waits as long as a script may run (its own default, 60 s, is shorter than the largest timeout_ms).
  const runCode = (c: Client, code: string, extra: Record<string, unknown> = {}) =>
    c.callTool({ name: 'run_code', arguments: { code, ...extra } }, undefined, { timeout: 180_000 });

  it('an agent finds the tools, then one run_code script chains three servers and returns a shaped result', async () => {
    const found = await findAll(client, [
      'read a text file',
      'add two numbers',
      'create entities in the knowledge graph memory',
      'read the whole knowledge graph',
    ]);
    const pick = (server: string, re: RegExp) =>
      found.find((m) => m.name.startsWith(`${server}_`) && re.test(m.name))!.name;
    const read = pick('files', /read_text_file$/);
    assert.match(found.find((m) => m.name === read)!.input!, /path: string/);
    const code = chainScript(
      files,
      read,
      pick('everything', /get-sum$/),
      pick('memory', /create_entities$/),
      pick('memory', /read_graph$/),
    );
    const r = await runCode(client, code);
    assert.ok(!r.isError, text(r));
    const [value, logs] = (r.content as { text: string }[]).map((c) => c.text);
    assert.deepEqual(JSON.parse(value!), { totals: [12, 30, 100], total: 142, stored: 'total=142' });
    assert.equal(logs, 'console.log:\ntotals [12,30,100]');
    const stats = http.gateway.stats().tokens;
    assert.ok(stats.codeMode!.runs >= 1 && stats.codeMode!.innerCalls >= 6, JSON.stringify(stats.codeMode));
  });

  it('reports syntax and runtime errors with line and column', async () => {
    const syntax = await runCode(client, 'const a = 1;\nconst b = ;');
    assert.equal(syntax.isError, true);
    assert.match(text(syntax), /^run_code failed, syntax error \(line 2, column 11\): SyntaxError: /);
    const runtime = await runCode(client, 'const x = null;\n\nreturn x.field;');
    assert.match(
      text(runtime),
      /^run_code failed, runtime error \(line 3, column 9\): TypeError: cannot read property 'field' of null/,
    );
    const thrown = await runCode(client, 'console.log("before");\nthrow new Error("my own failure");');
    assert.match(
      text(thrown),
      /runtime error \(line 2, column \d+\): Error: my own failure[\s\S]*console.log before it stopped:\nbefore/,
    );
  });

  describe('sandbox escapes are refused with clear errors', () => {
    const refused: [string, string, RegExp][] = [
      [
        'process',
        'return process.env.HOME',
        /runtime error \(line 1, column \d+\): ReferenceError: process is not available in run_code: a script has only call_tool/,
      ],
      [
        'require',
        'const fs = require("fs"); return fs.readFileSync("/etc/passwd", "utf8")',
        /ReferenceError: require is not available in run_code/,
      ],
      [
        'import()',
        'const fs = await import("fs"); return Object.keys(fs)',
        /Error: import is not available in run_code/,
      ],
      ['a static import', 'import fs from "fs";\nreturn 1', /syntax error/],
      [
        'globalThis.constructor.constructor',
        'const g = globalThis.constructor.constructor("return this")(); return g.process.pid',
        /ReferenceError: process is not available in run_code/,
      ],
      [
        'timers',
        'await new Promise((r) => setTimeout(r, 10)); return 1',
        /ReferenceError: setTimeout is not available in run_code/,
      ],
      ['fetch', 'return await fetch("http://127.0.0.1:1/")', /ReferenceError: fetch is not available in run_code/],
    ];
    for (const [what, code, expected] of refused) {
      it(what, async () => {
        const r = await runCode(client, code);
        assert.equal(r.isError, true, text(r));
        assert.match(text(r), expected);
      });
    }

    it('prototype pollution stays inside the sandbox: the host and the upstream see plain JSON', async () => {
      const echo = name('everything', 'echo');
      const r = await runCode(
        client,
        `
        Object.prototype.polluted = "yes";
        Array.prototype.push = () => { throw new Error("hijacked") };
        call_tool.constructor.prototype.hijacked = true;
        const args = JSON.parse('{"message": "hi", "__proto__": {"polluted": "through args"}}');
        const answer = await call_tool(${JSON.stringify(echo)}, args);
        return { answer, own: Object.keys(args) };`,
      );
      assert.ok(!r.isError, text(r));
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'host Object.prototype untouched');
      assert.equal((Function.prototype as unknown as Record<string, unknown>).hijacked, undefined);
      assert.deepEqual([1].concat([2]), [1, 2]);
      const value = JSON.parse(text(r)) as { answer: string; own: string[] };
      assert.match(value.answer, /Echo: hi/);
      const after = await client.callTool({
        name: 'call_tool',
        arguments: { tool_name: echo, arguments: { message: 'still fine' } },
      });
      assert.match(text(after), /Echo: still fine/);
    });

    it('an endless loop stops at the wall-time limit, with the limit named', async () => {
      const r = await runCode(client, 'let i = 0; for (;;) { try { i++ } catch (e) {} }', { timeout_ms: 1000 });
      assert.equal(r.isError, true);
      assert.match(
        text(r),
        /run_code failed, wall-time limit: the script ran past its wall-time limit of 1000 ms\. Pass a larger timeout_ms \(at most 120000, mcpLens\.codeMode\.maxTimeoutMs\)/,
      );
      const tooLong = await runCode(client, 'return 1', { timeout_ms: 10_000_000 });
      assert.match(
        text(tooLong),
        /"timeout_ms" must be an integer from 1000 to 120000 \(mcpLens\.codeMode\.maxTimeoutMs\)/,
      );
    });

    it('a memory bomb stops at the 64 MB limit', async () => {
      // The largest timeout: the memory limit, not the wall time, must be what stops it, however loaded the machine.
      const r = await runCode(client, 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));', {
        timeout_ms: 120_000,
      });
      assert.equal(r.isError, true);
      assert.match(text(r), /run_code failed, memory limit: the script went over its memory limit of 64 MB/);
    });

    it('10,000 calls stop at the 100-call limit, caught or not', async () => {
      const sum = name('everything', 'get-sum');
      for (const code of [
        `for (let i = 0; i < 10000; i++) await call_tool(${JSON.stringify(sum)}, { a: i, b: 1 }); return "all done"`,
        `let ok = 0; for (let i = 0; i < 10000; i++) { try { await call_tool(${JSON.stringify(sum)}, { a: i, b: 1 }); ok++ } catch {} } return ok`,
      ]) {
        // The largest timeout: a hundred calls on a loaded machine must not meet the wall time first.
        const r = await runCode(client, code, { timeout_ms: 120_000 });
        assert.equal(r.isError, true, text(r));
        assert.match(
          text(r),
          /run_code failed, calls limit: the script tried more than 100 tool calls, the limit for one run\. Split the work/,
        );
      }
    });

    it('a huge return value stops at the output limit', async () => {
      const r = await runCode(client, 'return "x".repeat(5 * 1024 * 1024)');
      assert.equal(r.isError, true);
      assert.match(
        text(r),
        /run_code failed, output limit: the return value is 5,242,882 characters as JSON; the output limit is 4,194,304/,
      );
    });

    it('a large but allowed return value is cut to max_output_tokens and kept whole', async () => {
      const r = await runCode(
        client,
        'return Array.from({ length: 3000 }, (_, i) => ({ row: i, label: "item " + i }))',
      );
      assert.ok(!r.isError, text(r));
      const note = (r.content as { text: string }[]).at(-1)!.text;
      const uri = /(mcp-lens:\/\/results\/[0-9a-f]+)/.exec(note)![1]!;
      assert.match(note, /Output cut at 8,000 of (?:about )?[\d,]+ tokens/);
      const back = await runCode(client, `const all = await read_result(${JSON.stringify(uri)}); return all.length`);
      assert.equal(text(back), '3000', 'read_result gives a script the whole kept result');
    });

    it('a promise that never resolves ends the run at once instead of hanging', async () => {
      // The never-settles error, not the wall-time one, is what says it did not wait for the timeout.
      const r = await runCode(client, 'await new Promise(() => {}); return "never"', { timeout_ms: 120_000 });
      assert.equal(r.isError, true);
      assert.match(
        text(r),
        /run_code failed, never-settles limit: the script is waiting for a promise that nothing will ever settle/,
      );
    });
  });

  it('an excluded tool is as unreachable from a script as from call_tool', async () => {
    const direct = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: 'everything_get-env', arguments: {} },
    });
    assert.equal(direct.isError, true);
    const r = await runCode(
      client,
      'const seen = "everything_get-env" in tools; try { await call_tool("everything_get-env", {}); return "reached" } catch (e) { return { seen, error: e.message } }',
    );
    assert.ok(!r.isError, text(r));
    const value = JSON.parse(text(r)) as { seen: boolean; error: string };
    assert.equal(value.seen, false);
    assert.equal(value.error, text(direct), 'the same unknown-tool text as call_tool');
    assert.match(value.error, /^Unknown tool "everything_get-env"\./);
  });

  it("a script calling a crashed server's tool gets that server's error, and the gateway keeps serving", async () => {
    const crash = name('crash', 'crash');
    const r = await runCode(
      client,
      `try { await call_tool(${JSON.stringify(crash)}, {}); return "no error" } catch (e) { return e.message }`,
    );
    assert.ok(!r.isError, text(r));
    assert.match(text(r), /Server "crash" stopped during the call to "crash" on server "crash"/);
    const uncaught = await runCode(client, `await call_tool(${JSON.stringify(crash)}, {})`);
    assert.equal(uncaught.isError, true);
    assert.match(text(uncaught), /runtime error: Error: (Server "crash" (stopped|is not ready)|The call)/);
    const sum = await runCode(
      client,
      `return await call_tool(${JSON.stringify(name('everything', 'get-sum'))}, { a: 2, b: 3 })`,
    );
    assert.equal(text(sum), 'The sum of 2 and 3 is 5.');
  });

  it("concurrent scripts do not see each other's state", async () => {
    const script = (tag: string) => `
      globalThis.shared = (globalThis.shared ?? []).concat(${JSON.stringify(tag)});
      Object.prototype.mark = ${JSON.stringify(tag)};
      await call_tool(${JSON.stringify(name('everything', 'get-sum'))}, { a: 1, b: 1 });
      await call_tool(${JSON.stringify(name('everything', 'get-sum'))}, { a: 1, b: 2 });
      return { shared: globalThis.shared, mark: ({}).mark };`;
    const other = await connect();
    try {
      const results = await Promise.all([
        runCode(client, script('one')),
        runCode(other, script('two')),
        runCode(client, script('three')),
      ]);
      assert.deepEqual(
        results.map((r) => JSON.parse(text(r))),
        [
          { shared: ['one'], mark: 'one' },
          { shared: ['two'], mark: 'two' },
          { shared: ['three'], mark: 'three' },
        ],
      );
    } finally {
      await other.close();
    }
  });

  it('mcpLens.codeMode.enabled off removes run_code from the list and refuses it', async () => {
    const settings = world.lens.settings();
    await world.lens.updateSettings({ ...settings, codeMode: { ...settings.codeMode, enabled: false } });
    try {
      const fresh = await connect();
      try {
        const { tools } = await fresh.listTools();
        assert.ok(!tools.some((t) => t.name === 'run_code'));
        assert.doesNotMatch(fresh.getInstructions() ?? '', /run_code/);
        const r = await runCode(fresh, 'return 1');
        assert.equal(r.isError, true);
        assert.match(text(r), /run_code is turned off in this workspace \(mcpLens\.codeMode\.enabled\)/);
      } finally {
        await fresh.close();
      }
    } finally {
      await world.lens.updateSettings(settings);
    }
  });

  it('every meta-tool carries the always-load hint, and find_tools names the workspace domains, byte-stable', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) assert.deepEqual(t._meta, { 'anthropic/alwaysLoad': true }, t.name);
    const find = tools.find((t) => t.name === 'find_tools')!;
    assert.match(
      find.description!,
      /Servers and what their tools cover: crash \([^)]*\), everything \([^)]*\), files \([^)]*director[^)]*\), memory \([^)]*\)\./,
    );
    const again = await connect();
    try {
      assert.equal(JSON.stringify((await again.listTools()).tools), JSON.stringify(tools));
    } finally {
      await again.close();
    }
  });
});

describe('code mode over stdio (mcp-lens serve)', () => {
  let ws: TestWorkspace;
  let dir: string;
  let client: Client;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-lens-code-stdio-'));
    for (const [f, v] of [
      ['a.txt', 'total=1'],
      ['b.txt', 'total=2'],
      ['c.txt', 'total=3'],
    ])
      writeFileSync(join(dir, f!), v!);
    ws = makeWorkspace({
      everything: EVERYTHING,
      files: filesystem(dir),
      memory: { ...MEMORY, env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
    });
    client = new Client({ name: 'code-mode-stdio', version: '1.0.0' });
    await client.connect(serveOverStdio(ws));
  });

  after(async () => {
    await client?.close();
    ws?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds tools, chains three servers in one script and gets a shaped result', async () => {
    // A first run (no catalog known): find_tools names servers still starting instead of
    // waiting for them, as an agent would, search again once they are up.
    await findToolsWhenStarted(client, { query: 'read a text file' });
    const found = await findAll(client, [
      'read a text file',
      'add two numbers',
      'create entities in the knowledge graph memory',
      'read the whole knowledge graph',
    ]);
    const pick = (server: string, re: RegExp) => {
      const m = found.find((x) => x.name.startsWith(`${server}_`) && re.test(x.name));
      assert.ok(m, `${server} ${re} in ${found.map((x) => x.name).join(', ')}`);
      return m.name;
    };
    const code = chainScript(
      dir,
      pick('files', /read_text_file$/),
      pick('everything', /get-sum$/),
      pick('memory', /create_entities$/),
      pick('memory', /read_graph$/),
    );
    const r = await client.callTool({ name: 'run_code', arguments: { code } });
    assert.ok(!r.isError, text(r));
    assert.deepEqual(JSON.parse((r.content as { text: string }[])[0]!.text), {
      totals: [1, 2, 3],
      total: 6,
      stored: 'total=6',
    });
  });
});
