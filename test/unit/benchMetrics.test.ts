import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BenchQuery } from '../../bench/src/dataset';
import { catalogToolsOf, scaleTools } from '../../bench/src/dataset';
import { bestRecallAt1, meanMetrics, percentile, queryMetrics } from '../../bench/src/metrics';

test('queryMetrics: recall@k, MRR@10 and complete@10 on fixed rankings', () => {
  const q1: BenchQuery = { id: '1', query: '', gold: ['s/a', 's/b'] };
  const m1 = queryMetrics(q1, ['s/x', 's/a', 's/y', 's/z', 's/w', 's/v', 's/b']);
  assert.deepEqual(m1, { 'recall@1': 0, 'recall@5': 0.5, 'recall@10': 1, 'mrr@10': 0.5, 'complete@10': 1 });
  const q2: BenchQuery = { id: '2', query: '', gold: ['s/a'], goldAlternatives: { 's/a': ['s/a2'] } };
  assert.deepEqual(queryMetrics(q2, ['s/a2', 's/a']), {
    'recall@1': 1,
    'recall@5': 1,
    'recall@10': 1,
    'mrr@10': 1,
    'complete@10': 1,
  });
  const q3: BenchQuery = { id: '3', query: '', gold: ['s/a', 's/b'] };
  const far = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 's/a'];
  assert.deepEqual(queryMetrics(q3, far), {
    'recall@1': 0,
    'recall@5': 0,
    'recall@10': 0,
    'mrr@10': 0,
    'complete@10': 0,
  });
  const mean = meanMetrics([m1, queryMetrics(q2, ['s/a2']), queryMetrics(q3, [])]);
  assert.deepEqual(mean, {
    'recall@1': 1 / 3,
    'recall@5': 0.5,
    'recall@10': 2 / 3,
    'mrr@10': 0.5,
    'complete@10': 2 / 3,
  });
});

test('bestRecallAt1: a query for n gold tools scores at most 1/n at recall@1, whatever the ranking', () => {
  const two: BenchQuery = { id: '1', query: '', gold: ['s/a', 's/b'], goldAlternatives: { 's/a': ['s/a2'] } };
  assert.equal(bestRecallAt1(two), 0.5);
  assert.equal(queryMetrics(two, ['s/a', 's/b'])['recall@1'], bestRecallAt1(two), 'the best ranking reaches it');
  assert.equal(bestRecallAt1({ id: '2', query: '', gold: ['s/a', 's/b', 's/c'] }), 1 / 3);
  assert.equal(bestRecallAt1({ id: '3', query: '', gold: ['s/a'] }), 1);
});

test('keys containing slashes are compared whole', () => {
  const q: BenchQuery = { id: '1', query: '', gold: ['api/v1/list'] };
  assert.equal(queryMetrics(q, ['api/v1', 'api/v1/list'])['mrr@10'], 0.5);
});

test('percentile is nearest-rank', () => {
  const v = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
  assert.equal(percentile(v, 0.5), 5);
  assert.equal(percentile(v, 0.99), 10);
  assert.equal(percentile([], 0.5), 0);
});

test('catalogToolsOf makes unique safe names; scaleTools replicates with suffixed servers', () => {
  const tools = catalogToolsOf([
    { server: 'My Server', name: 'get/item' },
    { server: 'My_Server', name: 'get_item', description: 'd' },
  ]);
  assert.deepEqual(
    tools.map((t) => [t.key, t.name]),
    [
      ['My Server/get/item', 'My_Server_get_item'],
      ['My_Server/get_item', 'My_Server_get_item_2'],
    ],
  );
  const scaled = scaleTools(tools, 5);
  assert.equal(scaled.length, 5);
  assert.equal(new Set(scaled.map((t) => t.key)).size, 5);
  assert.equal(scaled[2].key, 'My Server~2/get/item');
});
