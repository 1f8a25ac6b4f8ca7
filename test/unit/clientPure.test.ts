// The extension's pure parts: the crash budget, offsets → positions for diagnostics, moving
// entries out of mcp.json without losing comments, the status bar text, and the log channels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import type * as vscode from 'vscode';
import { CrashBudget } from '../../client/src/crashBudget';
import { levelRoutingChannel } from '../../client/src/logChannel';
import { extractServers } from '../../client/src/mcpJsonEdit';
import { formatTokens, statusBarText, statusSummary } from '../../client/src/statusText';
import { offsetToPosition } from '../../client/src/textPosition';
import type { StateChangedParams } from '../../protocol/lspProtocol';
import { serverRow } from '../fixtures/catalogRows';

test('the crash budget allows 5 crashes in 3 minutes and forgets old ones', () => {
  const b = new CrashBudget(5, 180_000);
  const allowed = [0, 1000, 2000, 3000, 4000, 5000].map((t) => b.record(t));
  assert.deepEqual(allowed, [true, true, true, true, true, false]);
  assert.equal(b.record(200_000), true, 'crashes older than the window do not count');
  assert.equal(b.count, 1);
});

test('offsetToPosition', () => {
  const text = '{\n  "servers": {\n    "x": 1\n  }\n}';
  for (const [offset, line, character] of [
    [0, 0, 0],
    [2, 1, 0],
    [4, 1, 2],
    [text.indexOf('"x"'), 2, 4],
    [text.length + 10, 4, 1],
  ] as const) {
    assert.deepEqual(offsetToPosition(text, offset), { line, character }, `offset ${offset}`);
  }
});

const MCP_JSON = `// my servers
{
  "inputs": [{ "id": "token", "type": "promptString", "password": true }],
  "servers": {
    // the everything server
    "everything": { "command": "node", "args": ["everything.js"] },
    "memory": {
      "command": "node", // keep this comment
      "args": ["memory.js"]
    },
    "remote": { "url": "https://example.test/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
  }
}
`;

test('extractServers removes the named entries and keeps comments and the rest', () => {
  const r = extractServers(MCP_JSON, ['everything', 'remote', 'absent']);
  assert.deepEqual(Object.keys(r.entries), ['everything', 'remote']);
  assert.deepEqual(r.entries.everything, { command: 'node', args: ['everything.js'] });
  assert.deepEqual(r.missing, ['absent']);
  assert.match(r.text, /^\/\/ my servers/);
  assert.match(r.text, /\/\/ keep this comment/);
  assert.doesNotMatch(r.text, /everything\.js/);
  assert.doesNotMatch(r.text, /example\.test/);
  const after = parse(r.text) as { servers: Record<string, unknown>; inputs: unknown[] };
  assert.deepEqual(Object.keys(after.servers), ['memory']);
  assert.equal(after.inputs.length, 1);
});

test('extractServers refuses a broken file', () => {
  assert.throws(() => extractServers('{ "servers": { ', ['x']), /not valid JSON/);
});

function state(over: Partial<StateChangedParams> = {}): StateChangedParams {
  return {
    servers: [
      serverRow({ name: 'a', toolCount: 10 }),
      serverRow({
        name: 'b',
        state: 'error',
        source: 'settings',
        sourceFile: '/s.json',
        restarts: 1,
        error: 'spawn ENOENT',
      }),
    ],
    index: { state: 'ready', mode: { kind: 'keyword', label: 'keyword only' }, toolsTotal: 10, toolsEmbedded: 0 },
    stats: {
      tools: 10,
      servers: 2,
      exposure: 'search',
      tokens: {
        baselineTokens: 12_000,
        exposedTokens: 800,
        savingsPercent: 93.3,
        findToolsCalls: 0,
        returnedTokensTotal: 0,
        savedTokensTotal: 0,
        requests: { toolCalls: 0, toolCallSavedTokens: 0, searches: 0, searchTokens: 0 },
        history: [],
        perServer: [],
      },
    },
    ...over,
  };
}

test('statusSummary counts tools, problems and saved tokens', () => {
  const s = statusSummary(state());
  assert.equal(s.tools, 10);
  assert.equal(s.problems, 1);
  assert.equal(s.savedTokens, 11_200);
  assert.equal(s.indexing, false);
  assert.ok(s.tooltipLines.some((l) => l.includes('b: spawn ENOENT')));
  const indexing = statusSummary(
    state({
      index: {
        state: 'indexing',
        progress: 0.5,
        mode: { kind: 'keyword', label: 'k' },
        toolsTotal: 10,
        toolsEmbedded: 5,
      },
    }),
  );
  assert.equal(indexing.indexing, true);
  assert.ok(indexing.tooltipLines.some((l) => l.includes('50%')));
});

test('the status bar says what its figure is: tokens, saved in every request', () => {
  const s = statusSummary(state());
  assert.equal(statusBarText(s), '$(telescope) 10 tools · 11k tokens saved');
  assert.match(
    s.ariaLabel,
    /Saves 11,200 tokens in every request the agent sends: it lists 800 tokens of tool definitions instead of every server's 12,000 \(search mode, 93\.3% fewer\)/,
  );
  const cost = statusSummary(
    state({
      stats: { ...state().stats, tokens: { ...state().stats.tokens, exposedTokens: 13_000, savingsPercent: -8.3 } },
    }),
  );
  assert.equal(statusBarText(cost), '$(telescope) 10 tools', 'a cost is not shown as a saving');
  assert.match(cost.ariaLabel, /Costs 1,000 tokens more in every request/);
});

test('formatTokens', () => {
  assert.deepEqual([950, 1500, 11_200, 131_600, 2_500_000].map(formatTokens), ['950', '1.5k', '11k', '132k', '2.5M']);
});

/** A LogOutputChannel that records what reaches each level (only the methods the router calls). */
function recordingLog(): { log: vscode.LogOutputChannel; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (text: string) => void lines.push(`${level}: ${text}`);
  const log = {
    name: 'MCP Lens',
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
  };
  return { log: log as unknown as vscode.LogOutputChannel, lines };
}

test('log lines reach their level; the protocol trace never carries params or results', () => {
  const out = recordingLog();
  const channel = levelRoutingChannel(out.log);
  channel.appendLine('[Error - 12:00:00] upstream "gh" failed');
  channel.appendLine('plain stderr line');
  assert.deepEqual(out.lines, ['error: upstream "gh" failed', 'info: plain stderr line']);

  const secret = 'tok-SECRET-1234';
  const trace = recordingLog();
  const traced = levelRoutingChannel(trace.log, { payloads: false });
  // Text format: a header line, then the params as a line of their own.
  traced.appendLine("[Trace - 12:00:01] Sending request 'mcpLens/callTool - (3)'.");
  traced.appendLine(`Params: {\n    "name": "gh_create_issue",\n    "arguments": { "token": "${secret}" }\n}\n\n`);
  traced.appendLine(
    `[Trace - 12:00:02] Received response 'mcpLens/gatewayInfo - (4)' in 2ms.\nResult: {"token":"${secret}"}`,
  );
  // JSON format: the whole message inside one LSP line.
  traced.append('[LSP   - 12:00:03] ');
  traced.appendLine(
    JSON.stringify({
      isLSPMessage: true,
      type: 'send-request',
      message: { jsonrpc: '2.0', id: 5, method: 'mcpLens/updateSettings', params: { inputs: { key: secret } } },
    }),
  );
  assert.deepEqual(trace.lines, [
    "trace: Sending request 'mcpLens/callTool - (3)'.",
    "trace: Received response 'mcpLens/gatewayInfo - (4)' in 2ms.",
    'trace: send-request mcpLens/updateSettings (id 5)',
  ]);
  assert.ok(!trace.lines.join('\n').includes(secret));
});
