/**
 * The gateway's pure parts, table-driven: exposure per mode, instructions stability,
 * description truncation, self-counting token figures, server summaries, HTTP guards and the
 * `--http [PORT]` flag.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DEFAULT_SETTINGS, type McpLensSettings } from '../../protocol/settings';
import type { SearchResponse } from '../../protocol/model';
import { catalogTool, serverRow } from '../fixtures/catalogRows';
import { CatalogLens } from '../fixtures/catalogLens';
import { countTokens, toolListTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';
import { exposedDefinitions } from '../../server/src/gateway/exposure';
import {
  FAR_DESCRIPTION_CHARS,
  MAX_DESCRIPTION_CHARS,
  NO_MATCH_HINT,
  TRUNCATED_MARK,
  renderFindTools,
  truncateDescription,
  type FindToolsOutput,
} from '../../server/src/gateway/findToolsResult';
import { hostAllowed, originAllowed, tokensEqual } from '../../server/src/gateway/httpGuards';
import { gatewayInstructions } from '../../server/src/gateway/instructions';
import { summarizeTools } from '../../server/src/gateway/serverSummary';

const tool = catalogTool;

const TOOLS = [
  tool('gh', 'create_issue'),
  tool('gh', 'list_issues'),
  tool('fs', 'read_file'),
  { ...tool('x', 'find_tools'), name: 'find_tools' },
];

// Token counts are the o200k table's, as every entry point installs it.
before(() => useTokenCounter(o200kTokenizer));
describe('exposure modes', () => {
  const meta = ['find_tools', 'call_tool', 'run_code', 'get_tool_schema', 'list_servers'];
  const cases: { name: string; settings: Partial<McpLensSettings>; predictor?: string[]; expect: string[] }[] = [
    { name: 'search lists the meta-tools only', settings: { exposure: 'search' }, expect: meta },
    {
      name: 'pinned adds pinned names and server/tool keys, once',
      settings: { exposure: 'pinned', pinnedTools: ['gh_create_issue', 'fs/read_file', 'gh_create_issue', 'nope'] },
      expect: [...meta, 'gh_create_issue', 'fs_read_file'],
    },
    {
      name: 'all adds every tool except one shadowing a meta-tool',
      settings: { exposure: 'all' },
      expect: [...meta, 'gh_create_issue', 'gh_list_issues', 'fs_read_file'],
    },
    { name: 'predictive with nothing predicted is search', settings: { exposure: 'predictive' }, expect: meta },
    {
      name: 'predictive adds predicted tools up to maxTools',
      settings: { exposure: 'predictive', predict: { minTools: 1, maxTools: 1 } },
      predictor: ['gh_list_issues', 'fs_read_file'],
      expect: [...meta, 'gh_list_issues'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const settings = { ...DEFAULT_SETTINGS, ...c.settings };
      const lens = new CatalogLens(TOOLS, [], c.predictor);
      assert.deepEqual(
        exposedDefinitions(lens, settings, 's1').map((t) => t.name),
        c.expect,
      );
    });
  }
});

describe('the meta-tools cost', () => {
  it('at most 1,000 o200k tokens of tools/list in search mode, on the recorded 19-server catalog (issue #25)', () => {
    const recorded = readRecordedCatalog().servers;
    const tools = Object.entries(recorded).flatMap(([server, s]) =>
      s.tools.map((t) => ({ ...tool(server, t.name, t.description ?? ''), inputSchema: t.inputSchema })),
    );
    const lens = new CatalogLens(
      tools,
      Object.keys(recorded).map((name) => serverRow({ name })),
    );
    const listed = exposedDefinitions(lens, DEFAULT_SETTINGS, 's1');
    assert.deepEqual(
      listed.map((t) => t.name),
      ['find_tools', 'call_tool', 'run_code', 'get_tool_schema', 'list_servers'],
    );
    assert.match(listed[0]!.description!, /github \([^)]+\)/, 'the domains line is there');
    const tokens = toolListTokens(listed);
    assert.ok(tokens <= 1000, `tools/list costs ${tokens} tokens`);
  });
});

describe('instructions', () => {
  it('depend only on the set of server names', () => {
    assert.equal(gatewayInstructions(['b', 'a', 'a']), gatewayInstructions(['a', 'b']));
    assert.notEqual(gatewayInstructions(['a', 'b']), gatewayInstructions(['a', 'c']));
    assert.match(
      gatewayInstructions(['github', 'memory']),
      /find_tools[\s\S]*call_tool[\s\S]*get_tool_schema[\s\S]*list_servers[\s\S]*github, memory/,
    );
  });
});

describe('find_tools rendering', () => {
  it('truncates long or control-laden descriptions with a marker', () => {
    assert.equal(truncateDescription('short'), 'short');
    const long = truncateDescription('x'.repeat(2000));
    assert.ok(long.endsWith(TRUNCATED_MARK) && long.length === MAX_DESCRIPTION_CHARS + TRUNCATED_MARK.length);
    assert.equal(truncateDescription('a\u0000b\u001bé'), 'abé');
    // ESC c resets a terminal: it goes whole.
    assert.equal(truncateDescription('a\u001bcb'), 'ab');
  });

  const render = (scores: number[], inline = 2, extra: Partial<SearchResponse> = {}) => {
    const hits = TOOLS.slice(0, scores.length).map((t, i) => ({
      name: t.name,
      server: t.server,
      originalName: t.originalName,
      description: 'd'.repeat(900),
      score: scores[i]!,
      signals: ['keyword' as const],
      why: 'matched',
    }));
    const { result, returnedTokens } = renderFindTools(
      { query: 'q', hits, mode: { kind: 'keyword', label: 'keyword only' }, tookMs: 1, ...extra },
      (n) => TOOLS.find((t) => t.name === n),
      inline,
      100_000,
    );
    return { result, returnedTokens, out: result.structuredContent as FindToolsOutput };
  };

  it('counts the tokens of its own text; close top hits carry signatures, not schemas', () => {
    const { result, returnedTokens, out } = render([1, 0.9, 0.8]);
    const text = (result.content[0] as { text: string }).text;
    assert.equal(returnedTokens, countTokens(text));
    assert.equal(out.token_metrics?.returned_tokens, returnedTokens);
    assert.deepEqual(
      out.matches.map((m) => [m.input_schema !== undefined, m.input]),
      [
        [false, '{}'],
        [false, '{}'],
        [false, undefined],
      ],
    );
    assert.ok(out.matches.every((m) => m.description.endsWith(TRUNCATED_MARK)));
    assert.equal(out.no_match, undefined);
  });

  it('a hit far below the first gets a name and its first sentence, in either format', () => {
    const far = (scores: number[], format: 'schema' | 'signature') => {
      const hits = TOOLS.slice(0, scores.length).map((t, i) => ({
        name: t.name,
        server: t.server,
        originalName: t.originalName,
        description: `Does thing ${i}. Then much more about it: ${'x'.repeat(600)}`,
        score: scores[i]!,
        signals: ['keyword' as const],
        why: 'matched',
      }));
      const { result } = renderFindTools(
        { query: 'q', hits, mode: { kind: 'keyword', label: 'keyword only' }, tookMs: 1 },
        (n) => TOOLS.find((t) => t.name === n),
        3,
        100_000,
        format,
      );
      return (result.structuredContent as FindToolsOutput).matches;
    };
    // 10 and 9 are close (not confident: signatures); 4 is under half the first: far.
    const schema = far([10, 9, 4], 'schema');
    assert.deepEqual(
      schema.map((m) => m.input),
      ['{}', '{}', undefined],
    );
    assert.deepEqual(schema[2], {
      name: TOOLS[2]!.name,
      server: TOOLS[2]!.server,
      description: 'Does thing 2.',
      score: 4,
    });
    const signature = far([10, 9, 4], 'signature');
    assert.deepEqual(
      signature.map((m) => [m.server, typeof m.input]),
      [
        [undefined, 'string'],
        [undefined, 'string'],
        [undefined, 'undefined'],
      ],
    );
    assert.deepEqual(signature[2], { name: TOOLS[2]!.name, description: 'Does thing 2.' });
    // A first sentence longer than a line is cut with the mark.
    const long = TOOLS.slice(0, 2).map((t, i) => ({
      ...t,
      description: 'y'.repeat(300),
      score: [10, 1][i]!,
      signals: [],
      why: '',
    }));
    const cut = renderFindTools(
      { query: 'q', hits: long, mode: { kind: 'keyword', label: 'keyword only' }, tookMs: 1 },
      () => undefined,
      3,
      1,
      'signature',
    );
    assert.equal(
      (cut.result.structuredContent as FindToolsOutput).matches[1]!.description,
      `${'y'.repeat(FAR_DESCRIPTION_CHARS)}${TRUNCATED_MARK}`,
    );
  });

  it('a confident top hit alone carries its full input schema', () => {
    const { out } = render([10, 5, 4]);
    assert.deepEqual(
      out.matches.map((m) => [m.input_schema, m.input]),
      [
        [{ type: 'object', properties: {} }, undefined],
        [undefined, undefined],
        [undefined, undefined],
      ],
    );
    // A single hit is confident; inlineSchemas 0 inlines nothing.
    assert.ok(render([3]).out.matches[0]!.input_schema);
    assert.deepEqual(
      render([10, 5], 0).out.matches.map((m) => [m.input_schema, m.input]),
      [
        [undefined, undefined],
        [undefined, undefined],
      ],
    );
  });

  it("no match: says so, suggests rephrasing and list_servers, with close names and the servers' words, escaped", () => {
    const { out } = render([], 2, {
      noMatch: {
        closeNames: [
          {
            name: 'gh_create_issue',
            server: 'gh',
            originalName: 'create_issue',
            description: '',
            score: 0,
            signals: [],
            why: 'name close to "isue"',
          },
        ],
        unavailable: [{ name: 'slack', state: 'error', error: 'exited with code 1\u001b[31m' }],
        lastKnown: [{ name: 'gh', state: 'starting' }],
        servers: [{ name: 'gh', tools: 1, words: ['issue', 'repository'] }],
      },
    });
    assert.deepEqual(out.matches, []);
    assert.equal(out.no_match?.hint, NO_MATCH_HINT);
    assert.match(NO_MATCH_HINT, /Rephrase[\s\S]*list_servers/);
    assert.deepEqual(out.no_match?.close_names, ['gh_create_issue']);
    assert.deepEqual(out.no_match?.not_searched, ['slack: error (exited with code 1)']);
    assert.deepEqual(
      out.no_match?.searched_from_last_known,
      ['gh: starting'],
      'searched, from the tools it listed last',
    );
    assert.deepEqual(out.no_match?.servers, ['gh (1 tool): issue, repository']);
  });

  it('no match at organisation scale: names at most 30 servers not searched or searched from their last listing, and counts the rest', () => {
    const many = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, state: 'stopped' as const }));
    const { out } = render([], 2, {
      noMatch: { closeNames: [], unavailable: many('down', 4000), lastKnown: many('lazy', 31), servers: [] },
    });
    const notSearched = out.no_match?.not_searched ?? [];
    assert.equal(notSearched.length, 31);
    assert.deepEqual(notSearched.slice(0, 2), ['down0: stopped', 'down1: stopped']);
    assert.equal(notSearched[30], "…and 3,970 more servers (list_servers shows each one's state)");
    assert.deepEqual(out.no_match?.searched_from_last_known?.slice(29), [
      'lazy29: stopped',
      "…and 1 more server (list_servers shows each one's state)",
    ]);
    const few = render([], 2, { noMatch: { closeNames: [], unavailable: many('down', 30), servers: [] } }).out;
    assert.equal(few.no_match?.not_searched?.length, 30, 'thirty are named, without a line for the rest');
  });
});

describe('server summaries', () => {
  it('names the words most of its tools share', () => {
    const s = summarizeTools([
      tool('gh', 'create_issue', 'Create a new issue in a repository'),
      tool('gh', 'list_issues', 'List issues of a repository'),
      tool('gh', 'merge_pull_request', 'Merge a pull request'),
    ]);
    assert.match(s, /^3 tools: /);
    assert.match(s, /issue/);
    assert.match(s, /repository/);
    assert.equal(summarizeTools([]), 'no tools');
  });

  it('counts a plural and its singular as one word, shown as the tools write it most', () => {
    const s = summarizeTools([
      tool('fs', 'read_file', 'Read a file'),
      tool('fs', 'write_file', 'Write a file'),
      tool('fs', 'list_files', 'List the files of a directory'),
      tool('fs', 'tree', 'The directories under a path'),
    ]);
    assert.equal(
      s,
      '4 tools: file, directories, path, read, tree, under',
      'file and files as one (3 tools), directory and directories too (2)',
    );
  });
});

describe('HTTP guards and flags', () => {
  it('compares tokens exactly', () => {
    assert.ok(tokensEqual('abc', 'abc'));
    assert.ok(!tokensEqual('abc', 'abd'));
    assert.ok(!tokensEqual('abc', 'abcd'));
    assert.ok(!tokensEqual('', 'abc'));
  });

  it('allows only our own Host and Origin', () => {
    assert.ok(hostAllowed('127.0.0.1:4000', 4000) && hostAllowed('localhost:4000', 4000));
    for (const h of [undefined, '127.0.0.1', '127.0.0.1:4001', 'evil.com:4000', '0.0.0.0:4000'])
      assert.ok(!hostAllowed(h, 4000), String(h));
    assert.ok(
      originAllowed(undefined, 4000) &&
        originAllowed('http://localhost:4000', 4000) &&
        originAllowed('http://127.0.0.1:4000', 4000),
    );
    for (const o of [
      'null',
      'https://127.0.0.1:4000',
      'http://evil.com',
      'vscode-webview://x',
      'http://127.0.0.1:4001',
    ])
      assert.ok(!originAllowed(o, 4000), o);
  });
});
