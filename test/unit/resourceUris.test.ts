// Upstream resources and templates under MCP Lens's scheme, and back (core/resourceUris.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  matchTemplateUri,
  parseResourceUri,
  resolveResourceUri,
  resourceTemplateUri,
  resourceUri,
} from '../../server/src/core/resourceUris';

describe('resource URIs', () => {
  test('a resource URI round-trips whole, and survives a client turning %2F back into /', () => {
    const uri = resourceUri('my server', 'file:///a b/c?x=1#f');
    assert.deepEqual(parseResourceUri(uri), { server: 'my server', originalUri: 'file:///a b/c?x=1#f' });
    assert.deepEqual(parseResourceUri(uri.replace(/%2F/g, '/')), {
      server: 'my server',
      originalUri: 'file:///a b/c?x=1#f',
    });
    assert.equal(parseResourceUri('file:///x'), undefined);
  });

  const templates: [string, Record<string, string | string[]>][] = [
    ['test://template/{id}/data', { id: '123' }],
    ['test://template/{id}/data', { id: 'a b/c' }],
    ['file:///{+path}', { path: 'dir/sub file.txt' }],
    ['search://q{?query,lang}', { query: 'x&y', lang: 'en' }],
    ['repo://{owner}/{repo}/issues{/number}', { owner: 'o', repo: 'r', number: '7' }],
  ];
  for (const [template, vars] of templates) {
    test(`${template} with ${JSON.stringify(vars)}: read back as the upstream's own expansion`, () => {
      const ours = resourceTemplateUri('srv', template);
      assert.ok(ours.startsWith('mcp-lens://srv/'));
      const expanded = new UriTemplate(ours).expand(vars);
      assert.equal(matchTemplateUri(expanded, 'srv', template), new UriTemplate(template).expand(vars));
    });
  }

  test('a listed resource wins over a template it also matches; anything else of ours decodes whole', () => {
    const listed = new Set(['file:///a/b.txt']);
    const resolve = (uri: string) =>
      resolveResourceUri(
        uri,
        (server, original) => server === 'srv' && listed.has(original),
        () => ['file:///{+path}'],
      );
    assert.deepEqual(resolve(resourceUri('srv', 'file:///a/b.txt')), { server: 'srv', originalUri: 'file:///a/b.txt' });
    const fromTemplate = new UriTemplate(resourceTemplateUri('srv', 'file:///{+path}')).expand({ path: 'x y/z' });
    assert.deepEqual(resolve(fromTemplate), { server: 'srv', originalUri: 'file:///x%20y/z' });
    assert.equal(resolve('https://example.com/x'), undefined);
  });
});
