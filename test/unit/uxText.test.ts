// The dashboard's and palette's pure parts: counts with the right noun, a token cost worded as a
// cost, the "no matches" hint (sidecar side and palette items), where side views open, and the
// status bar's accessible label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentText, plural, pluralNoun, tokenChange, tokenCostReason } from '../../protocol/figureText';
import type { StateChangedParams } from '../../protocol/lspProtocol';
import { serverRow } from '../fixtures/catalogRows';
import type { NoMatchHint, ServerStatus } from '../../protocol/model';
import type { CatalogTool } from '../../server/src/core/catalog';
import { noMatchHint } from '../../server/src/core/noMatchHint';
import { noMatchLines } from '../../server/src/cli/noMatchText';
import { noMatchItems, paletteText } from '../../client/src/commands/noMatchItems';
import { sideColumn } from '../../client/src/sideColumn';
import { statusSummary } from '../../client/src/statusText';

test('counts carry the noun in the right number', () => {
  assert.deepEqual(
    [0, 1, 2, 1234].map((n) => plural(n, 'call')),
    ['0 calls', '1 call', '2 calls', '1,234 calls'],
  );
  assert.equal(plural(1, 'query', 'queries'), '1 query');
  assert.equal(plural(3, 'query', 'queries'), '3 queries');
  assert.equal(pluralNoun(1, 'tool'), 'tool');
  assert.equal(pluralNoun(22, 'tool'), 'tools');
  assert.equal(percentText(8, 13), '62%');
  assert.equal(percentText(0, 0), 'n/a');
});

test("a tools/list larger than the servers' own is a cost, never a negative saving", () => {
  assert.deepEqual(tokenChange({ baselineTokens: 3901, exposedTokens: 883, savingsPercent: 77.4 }), {
    kind: 'saving',
    percent: '77.4%',
    comparative: 'fewer',
    tokens: 3018,
  });
  assert.deepEqual(tokenChange({ baselineTokens: 3901, exposedTokens: 4724, savingsPercent: -21.1 }), {
    kind: 'cost',
    percent: '21.1%',
    comparative: 'more',
    tokens: 823,
  });
  assert.deepEqual(tokenChange({ baselineTokens: 100, exposedTokens: 100, savingsPercent: 0 }), {
    kind: 'even',
    percent: '0.0%',
    comparative: 'as many',
    tokens: 0,
  });
  // The rounded percentage may read 0.0 for a real cost; the token counts decide.
  assert.equal(tokenChange({ baselineTokens: 100_000, exposedTokens: 100_010, savingsPercent: -0 }).kind, 'cost');
  assert.match(tokenCostReason('all'), /search.*predictive/);
  assert.match(tokenCostReason('pinned'), /Pin fewer/);
});

function tool(server: string, originalName: string, description: string): CatalogTool {
  return {
    key: `${server}/${originalName}`,
    name: `${server}_${originalName}`,
    server,
    originalName,
    description,
    inputSchema: { type: 'object' },
  };
}
const TOOLS = [
  tool('memory', 'create_entities', 'Create multiple new entities in the knowledge graph'),
  tool('memory', 'add_observations', 'Add new observations to existing entities in the knowledge graph'),
  tool('memory', 'read_graph', 'Read the entire knowledge graph'),
  tool('everything', 'echo', 'Echoes back the input'),
  tool('everything', 'get-sum', 'Returns the sum of two numbers'),
];
function status(name: string, state: ServerStatus['state'], error?: string): ServerStatus {
  const s: ServerStatus = {
    name,
    transport: 'stdio',
    state,
    source: 'mcp-json',
    sourceFile: '/w/.mcp.json',
    toolCount: 0,
    promptCount: 0,
    resourceCount: 0,
    stderrTail: [],
    restarts: 0,
  };
  if (error) s.error = error;
  return s;
}

test("the no-match hint offers close names, the servers not searched now, and each server's words", () => {
  const hint = noMatchHint('echoo the text', TOOLS, [
    status('memory', 'ready'),
    status('everything', 'ready'),
    status('github', 'awaiting-approval', 'not approved yet'),
    status('k8s', 'error', 'spawn kubectl ENOENT'),
  ]);
  assert.deepEqual(
    hint.closeNames.map((h) => [h.name, h.why]),
    [['everything_echo', 'name close to "echoo"']],
  );
  assert.deepEqual(hint.closeNames[0]!.signals, [], 'not a search result: no signals, no score');
  assert.deepEqual(hint.unavailable, [
    { name: 'github', state: 'awaiting-approval', error: 'not approved yet' },
    { name: 'k8s', state: 'error', error: 'spawn kubectl ENOENT' },
  ]);
  const memory = hint.servers.find((s) => s.name === 'memory')!;
  assert.equal(memory.tools, 3);
  for (const w of ['graph', 'knowledge', 'entities'])
    assert.ok(memory.words.includes(w), `${w} in ${memory.words.join(', ')}`);
  assert.deepEqual(
    hint.servers.map((s) => s.name),
    ['everything', 'memory'],
  );
  assert.deepEqual(
    noMatchHint('memorize', TOOLS, []).closeNames,
    [],
    'nothing is close to "memorize": no made-up suggestion',
  );
  assert.deepEqual(noMatchHint('and the', TOOLS, []).closeNames, [], 'short filler words suggest nothing');
});

test('a server not connected whose last known tools were searched is not "not searched"', () => {
  const cached = (name: string, state: ServerStatus['state']): ServerStatus => ({
    ...status(name, state),
    fromCache: true,
  });
  const hint = noMatchHint('memorize', TOOLS, [
    cached('memory', 'starting'),
    cached('everything', 'idle'),
    status('github', 'starting'),
  ]);
  assert.deepEqual(
    hint.unavailable,
    [{ name: 'github', state: 'starting' }],
    'only the server without known tools was not searched',
  );
  assert.deepEqual(hint.lastKnown, [
    { name: 'memory', state: 'starting' },
    { name: 'everything', state: 'idle' },
  ]);
  assert.equal(noMatchHint('memorize', TOOLS, [status('memory', 'ready')]).lastKnown, undefined);
  // The terminal's form (mcp-lens search) and the agent's (find_tools) say the same.
  const lines = noMatchLines(hint).join('\n');
  assert.match(lines, /^No tool matches\./);
  assert.match(lines, /not searched now:\n {2}github: starting/);
  assert.match(lines, /searched from their last known tools \(not connected now\): memory \(starting\)$/m);
  assert.doesNotMatch(lines, /everything \(idle\)/, 'idle servers are named by the note on stderr already');
  assert.match(lines, /memory \(3 tools\): .*entities/);
});

test('the palette turns the hint into items that each lead somewhere', () => {
  const hint: NoMatchHint = {
    closeNames: [
      {
        name: 'everything_echo',
        server: 'everything',
        originalName: 'echo',
        description: 'Echoes back',
        score: 0,
        signals: [],
        why: 'name close to "echoo"',
      },
    ],
    unavailable: [
      { name: 'github', state: 'awaiting-approval' },
      { name: 'k8s', state: 'error', error: 'spawn kubectl ENOENT' },
    ],
    servers: [
      { name: 'memory', tools: 9, words: ['entities', 'observations'] },
      { name: 'one', tools: 1, words: [] },
    ],
  };
  const items = noMatchItems('echoo', hint);
  assert.match(items[0]!.label, /No tools match "echoo"/);
  assert.equal(items[0]!.action.kind, 'none', 'the message itself keeps the picker open');
  assert.deepEqual(
    items.filter((i) => i.separator).map((i) => i.separator),
    ['Close names', 'Not searched now', 'Servers, and the words their tools use'],
  );
  const echo = items.find((i) => i.label.includes('everything_echo'))!;
  assert.equal(echo.action.kind === 'tool' && echo.action.hit.name, 'everything_echo');
  assert.deepEqual(items.find((i) => i.label.includes('github'))!.action, {
    kind: 'command',
    command: 'mcpLens.approveServers',
  });
  const k8s = items.find((i) => i.label.includes('k8s'))!;
  assert.deepEqual(k8s.action, { kind: 'command', command: 'mcpLens.showDashboard' });
  assert.equal(k8s.detail, 'spawn kubectl ENOENT');
  const memory = items.find((i) => i.label.includes('memory'))!;
  assert.deepEqual(memory.action, { kind: 'server', server: 'memory' });
  assert.equal(memory.description, '9 tools');
  assert.match(memory.detail!, /entities, observations/);
  const one = items.find((i) => i.label.includes('$(server) one'))!;
  assert.equal(one.description, '1 tool');
  assert.equal('detail' in one, false);
});

test('third-party text cannot smuggle icons or line breaks into the palette', () => {
  assert.equal(paletteText('Deletes $(trash) all\n\u001b[31mfiles'), 'Deletes \\$(trash) all files');
  assert.match(
    noMatchItems('$(alert) x', { closeNames: [], unavailable: [], servers: [] })[0]!.label,
    /"\\\$\(alert\) x"/,
  );
  assert.equal(paletteText('x'.repeat(300)).length, 200 + '…[truncated]'.length);
});

const layout = (columns: number[], active: number) => ({
  all: columns.map((viewColumn) => ({ viewColumn })),
  activeTabGroup: { viewColumn: active },
});

test('side views reuse their column or another group and split only a single group', () => {
  assert.equal(sideColumn(layout([1], 1)), 'beside', 'one group: split once');
  assert.equal(sideColumn(layout([1, 2], 1)), 2, 'two groups: the other one, no new split');
  assert.equal(sideColumn(layout([1, 2], 2)), 1, 'active is the rightmost: the one to its left');
  assert.equal(sideColumn(layout([1, 2, 3], 2)), 3);
  assert.equal(sideColumn(layout([1, 2, 3], 3), 1), 1, 'back where it was last');
  assert.equal(sideColumn(layout([1, 2], 2), 3), 1, 'its last group is gone: another existing one');
  // Opening again and again never asks for more than the one split.
  let columns = [1];
  for (let i = 0; i < 5; i++) {
    const c = sideColumn(layout(columns, columns.length), 2);
    if (c === 'beside') columns = [...columns, columns.length + 1];
  }
  assert.deepEqual(columns, [1, 2]);
});

test("the status bar's accessible label is plain text: no markdown, no &nbsp;", () => {
  const params: StateChangedParams = {
    servers: [serverRow({ name: 'a', toolCount: 1 })],
    index: { state: 'ready', mode: { kind: 'keyword', label: 'keyword only' }, toolsTotal: 1, toolsEmbedded: 0 },
    stats: {
      tools: 1,
      servers: 1,
      exposure: 'all',
      tokens: {
        baselineTokens: 900,
        exposedTokens: 1100,
        savingsPercent: -22.2,
        findToolsCalls: 0,
        returnedTokensTotal: 0,
        savedTokensTotal: 0,
        requests: { toolCalls: 0, toolCallSavedTokens: 0, searches: 0, searchTokens: 0 },
        history: [],
        perServer: [],
      },
    },
  };
  const s = statusSummary(params);
  assert.equal(
    s.ariaLabel,
    "MCP Lens: 1 tool from 1/1 server. Costs 200 tokens more in every request the agent sends: it lists 1,100 tokens of tool definitions instead of every server's 900 (all mode, 22.2% more). Search: keyword only. Opens the MCP Lens dashboard.",
  );
  assert.doesNotMatch(s.ariaLabel, /&nbsp;|&[a-z]+;|\\/);
});
