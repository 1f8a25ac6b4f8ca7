// Live retrieval quality, the pure parts: judging a call against the session's last
// find_tools answer, the recent/earlier session windows, the trend, the stored record, and
// the words both the dashboard and `mcp-lens stats` use for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeCall, retrievalStats, retrievalTrend, type AnswerMemory } from '../../server/src/core/usage/retrieval';
import type { SearchRank, UsageEvent } from '../../server/src/core/usage/types';
import { fromStored, toStored } from '../../server/src/adapters/usage/usageRecord';
import type { RetrievalWindow } from '../../protocol/model';
import { retrievalAdvice, retrievalRates, trendText, windowText } from '../../protocol/retrievalText';

test('a call is judged once against the last answer: rank, missed, unsearched, then follow-ups', () => {
  assert.equal(judgeCall(undefined, 'k/get'), 'unsearched');
  const answer: AnswerMemory = { keys: ['k/get', 'k/logs', 'k/exec'], judged: false };
  assert.equal(judgeCall(answer, 'k/logs'), 2);
  assert.equal(answer.judged, true);
  assert.equal(judgeCall(answer, 'k/get'), 'followUp', 'the answer was already judged by the first call');
  assert.equal(judgeCall({ keys: ['k/get'], judged: false }, 'gh/pr'), 'missed');
  assert.equal(judgeCall({ keys: [], judged: false }, 'gh/pr'), 'missed', 'an empty answer held nothing');
});

let clock = 0;
function ev(sessionId: string, searchRank: SearchRank | undefined): UsageEvent {
  const e: UsageEvent = { sessionId, seq: 1, toolKey: 'k/t', server: 'k', at: ++clock, durationMs: 1, outcome: 'ok' };
  if (searchRank !== undefined) e.searchRank = searchRank;
  return e;
}

test('figures cover the 10 sessions with the latest agent calls, then the 10 before; older ones are left out', () => {
  const events: UsageEvent[] = [];
  // Session "long" starts first and calls again at the very end: it counts among the recent ones.
  events.push(ev('long', 'unsearched'));
  for (let s = 0; s < 25; s++) events.push(ev(`s${s}`, s < 5 ? 'missed' : 1));
  events.push(ev('long', 3));
  const r = retrievalStats(events)!;
  assert.equal(r.recent.sessions, 10);
  // long (2 calls: unsearched + rank 3) and s16..s24 (rank 1).
  assert.deepEqual(
    { ...r.recent, firstAt: 0, lastAt: 0 },
    { sessions: 10, calls: 11, picks: 10, top1: 9, top5: 10, missed: 0, unsearched: 1, firstAt: 0, lastAt: 0 },
  );
  assert.equal(r.recent.firstAt, 1, "the window starts at long's first call");
  // s6..s15 are the ten before; s0..s5 fall outside both windows.
  assert.deepEqual(
    { ...r.earlier!, firstAt: 0, lastAt: 0 },
    { sessions: 10, calls: 10, picks: 10, top1: 10, top5: 10, missed: 0, unsearched: 0, firstAt: 0, lastAt: 0 },
  );
});

test('ranks past 5 are picks outside the top 5; follow-ups and calls not from agents count for nothing', () => {
  const r = retrievalStats([ev('a', 6), ev('a', 'followUp'), ev('a', undefined), ev('b', 5), ev('c', 'missed')])!;
  assert.deepEqual(
    { ...r.recent, firstAt: 0, lastAt: 0 },
    { sessions: 3, calls: 4, picks: 3, top1: 0, top5: 1, missed: 1, unsearched: 0, firstAt: 0, lastAt: 0 },
  );
  assert.equal(r.earlier, undefined);
  assert.equal(r.trend, undefined);
  assert.equal(retrievalStats([ev('dashboard', undefined)]), undefined, 'no agent calls: no figures');
});

const win = (picks: number, top1: number, top5: number): RetrievalWindow => ({
  sessions: 10,
  calls: picks,
  picks,
  top1,
  top5,
  missed: picks - top5,
  unsearched: 0,
});

test('the trend needs 10 picks on both sides and a change of 10 points at rank 1 or in the top 5', () => {
  assert.equal(retrievalTrend(win(20, 12, 17), win(20, 15, 18)), 'falling', '60% against 75% at rank 1');
  assert.equal(
    retrievalTrend(win(10, 6, 9), win(10, 7, 9)),
    'falling',
    '0.6 - 0.7 is a fall of 10 points despite rounding',
  );
  assert.equal(
    retrievalTrend(win(20, 16, 14), win(20, 12, 18)),
    'falling',
    'a fall in the top 5 counts even when rank 1 rose',
  );
  assert.equal(retrievalTrend(win(20, 15, 18), win(20, 12, 17)), 'rising');
  assert.equal(retrievalTrend(win(20, 14, 18), win(20, 15, 18)), 'steady');
  assert.equal(retrievalTrend(win(9, 0, 0), win(20, 20, 20)), undefined, 'too few recent picks to tell');
  assert.equal(retrievalTrend(win(20, 0, 0), win(9, 9, 9)), undefined, 'too few earlier picks to tell');
});

test('the stored record keeps the rank kind and drops values that are not one', () => {
  const base: UsageEvent = {
    sessionId: 's',
    seq: 2,
    toolKey: 'k/get',
    server: 'k',
    at: 5,
    durationMs: 3,
    outcome: 'ok',
  };
  for (const rank of [1, 7, 'missed', 'unsearched', 'followUp'] as const) {
    const stored = JSON.parse(JSON.stringify(toStored({ ...base, searchRank: rank }))) as unknown;
    assert.deepEqual(fromStored(stored), { ...base, searchRank: rank });
  }
  assert.equal('r' in toStored(base), false, 'no field for a call no search judged');
  for (const bad of [0, -1, 1.5, 5000, 'first', null, true]) {
    assert.deepEqual(
      fromStored({ ...toStored(base), r: bad }),
      base,
      `r = ${JSON.stringify(bad)} is ignored, the call kept`,
    );
  }
  assert.deepEqual(
    fromStored({ ...toStored(base), f: 1 }),
    base,
    'the older first-rank flag says nothing about rank 2..5: ignored',
  );
});

test('the rates read as percentages with their sample, and the trend as a sentence', () => {
  const recent: RetrievalWindow = { sessions: 10, calls: 26, picks: 13, top1: 8, top5: 11, missed: 1, unsearched: 6 };
  assert.deepEqual(retrievalRates(recent), {
    top1: '62%',
    top5: '85%',
    unsearched: '23%',
    top1Of: '8 of 13 picks',
    top5Of: '11 of 13 picks',
    unsearchedOf: '6 of 26 calls',
  });
  assert.deepEqual(
    retrievalRates({ ...recent, calls: 1, picks: 1, top1: 1, top5: 1, unsearched: 0 }).top1Of,
    '1 of 1 pick',
  );
  assert.equal(retrievalRates({ ...recent, picks: 0, top1: 0, top5: 0 }).top1, 'n/a');
  assert.equal(windowText({ ...recent, sessions: 1 }, 'last'), 'the last session');
  assert.equal(windowText(recent, 'earlier'), 'the 10 sessions before');
  const earlier: RetrievalWindow = { ...recent, top1: 11, top5: 12 };
  assert.equal(
    trendText({ recent, earlier, trend: 'falling' }),
    'Falling: 62% at rank 1 and 85% in the top 5, against 85% and 92% in the 10 sessions before.',
  );
  assert.equal(trendText({ recent }), undefined);
  assert.match(retrievalAdvice('keyword'), /descriptions.*Ollama/);
  assert.doesNotMatch(retrievalAdvice('hybrid'), /turn on/);
});
