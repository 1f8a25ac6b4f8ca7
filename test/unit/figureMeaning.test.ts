// Every figure the dashboard and the CLI show has a unit and a one-line meaning, and figures that
// look comparable are: "saved per request" and "saved in total" are one definition, the total
// said as the sum it is. Advice shows only when it applies and names settings that exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  perRequestMeaning,
  tokenCostReason,
  totalFigure,
  totalMeaning,
  usageCallsText,
  type TotalParts,
} from '../../protocol/figureText';
import { retrievalAdvice, retrievalAdviceFor } from '../../protocol/retrievalText';
import type { RetrievalWindow } from '../../protocol/model';

const ROOT = join(__dirname, '../..');

function parts(over: Partial<TotalParts> = {}): TotalParts {
  return {
    baselineTokens: 3991,
    exposedTokens: 1088,
    savedTokensTotal: 2 * 2903 - 1728,
    requests: { toolCalls: 2, toolCallSavedTokens: 2 * 2903, searches: 1, searchTokens: 1728 },
    shaping: { savedTokens: 0 },
    codeMode: { savedTokens: 0 },
    ...over,
  };
}

test('saved per request: the two lists it is the difference of, with their unit', () => {
  assert.equal(
    perRequestMeaning({ baselineTokens: 3991, exposedTokens: 1088 }, 'search'),
    'Per request: each request the agent sends carries the tool definitions, 3,991 tokens with every server listed directly, 1,088 through MCP Lens (search mode).',
  );
});

test('saved in total: the tool calls at the per-request figure, less the searches, plus results kept out', () => {
  const t = parts();
  assert.equal(
    totalMeaning(t),
    'In total: 2 agent tool calls saved 5,806 (2,903 each, the per-request figure), 1 search cost 1,728 (its request and answer).',
  );
  // The parts add up to the figure shown.
  assert.equal(t.requests.toolCallSavedTokens - t.requests.searchTokens, t.savedTokensTotal);
  assert.deepEqual(totalFigure(t), { value: '4,078', label: 'tokens saved in total', cost: false });
  assert.equal(
    totalMeaning(parts({ requests: { toolCalls: 1, toolCallSavedTokens: 2903, searches: 1, searchTokens: 1728 } })),
    'In total: 1 agent tool call saved 2,903 (the per-request figure), 1 search cost 1,728 (its request and answer).',
  );
  assert.equal(
    totalMeaning(
      parts({
        requests: { toolCalls: 3, toolCallSavedTokens: 7000, searches: 2, searchTokens: 3000 },
        shaping: { savedTokens: 400 },
        codeMode: { savedTokens: 100 },
      }),
    ),
    "In total: 3 agent tool calls saved 7,000 (each its request's tool definitions, as listed then), 2 searches cost 3,000 (their requests and answers), 500 kept out of tool results.",
  );
});

test('a total below zero is a cost in words, never a negative saving', () => {
  const t = parts({
    savedTokensTotal: -1728,
    requests: { toolCalls: 0, toolCallSavedTokens: 0, searches: 1, searchTokens: 1728 },
  });
  const figure = totalFigure(t);
  assert.equal(figure.value, '1,728');
  assert.equal(figure.cost, true);
  assert.match(figure.label, /^more tokens in total so far/);
  assert.doesNotMatch(totalMeaning(t), /-\d/);
});

test('the usage count says whose calls it counts, beside search quality', () => {
  assert.equal(
    usageCallsText({ callsRecorded: 4, agentCalls: 1 }),
    "4 tool calls recorded: 1 by agents, 3 by you (dashboard, palette). Search quality judges the agents' calls only.",
  );
  assert.equal(
    usageCallsText({ callsRecorded: 2, agentCalls: 2 }),
    "2 tool calls recorded: 2 by agents. Search quality judges the agents' calls only.",
  );
  assert.equal(usageCallsText({ callsRecorded: 0, agentCalls: 0 }), '0 tool calls recorded.');
});

const window: RetrievalWindow = { sessions: 10, calls: 13, picks: 13, top1: 8, top5: 11, missed: 1, unsearched: 0 };

test('advice on a falling rate shows only when the rate falls', () => {
  assert.equal(retrievalAdviceFor({ recent: { ...window, top1: 13, top5: 13 } }, 'keyword'), undefined, '100%: none');
  assert.equal(retrievalAdviceFor({ recent: window, earlier: window, trend: 'steady' }, 'keyword'), undefined);
  assert.match(retrievalAdviceFor({ recent: window, earlier: window, trend: 'falling' }, 'keyword') ?? '', /falling/);
});

test('every setting the advice and the cost notes name exists', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  const settings = new Set(Object.keys(manifest.contributes.configuration.properties));
  const texts = [
    retrievalAdvice('keyword'),
    retrievalAdvice('hybrid'),
    retrievalAdvice(),
    tokenCostReason('all'),
    tokenCostReason('pinned'),
    tokenCostReason('search'),
  ];
  const named = texts.flatMap((t) => t.match(/mcpLens\.[A-Za-z.]+[A-Za-z]/g) ?? []);
  assert.ok(named.includes('mcpLens.embedding.enabled'), named.join(', '));
  for (const name of named) assert.ok(settings.has(name), `${name} is a setting`);
});
