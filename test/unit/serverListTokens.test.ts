import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { catalogTool } from '../fixtures/catalogRows';
import { ServerListTokens, toolListTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';

useTokenCounter(o200kTokenizer);

const tool = (server: string, originalName: string, description: string) =>
  catalogTool(server, originalName, description, { type: 'object', properties: { path: { type: 'string' } } });

const upstreamList = (tools: CatalogTool[]) =>
  toolListTokens(tools.map((t) => ({ name: t.originalName, description: t.description, inputSchema: t.inputSchema })));

test('ServerListTokens: each server costs its own tools/list (original names), recounted when it changes', () => {
  const files = [tool('files', 'read_file', 'Read a file'), tool('files', 'delete_file', 'Delete a file')];
  const web = [tool('web', 'fetch', 'Fetch a URL')];
  const counter = new ServerListTokens();
  assert.deepEqual(
    counter.count([...files, ...web]),
    new Map([
      ['files', upstreamList(files)],
      ['web', upstreamList(web)],
    ]),
  );

  const longer = [tool('web', 'fetch', 'Fetch a URL and return its body as markdown, following redirects')];
  const after = counter.count([...files, ...longer]);
  assert.equal(after.get('web'), upstreamList(longer));
  assert.ok(after.get('web')! > upstreamList(web));
  assert.equal(after.get('files'), upstreamList(files));

  assert.deepEqual([...counter.count(files).keys()], ['files'], 'a server without tools has no cost');
});
