// The catalog cache (adapters/catalogCacheFile.ts) on a real temp folder at organisation scale:
// an org's catalog is tens of MB as JSON, past the 16 MB any other private file may be, and a
// cache refused at start means every lazily started server is started again to list its tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCatalogCache, writeCatalogCache, type CatalogCacheFile } from '../../server/src/adapters/catalogCacheFile';
import { readPrivateFile } from '../../server/src/adapters/privateFiles';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-catalog-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a catalog cache larger than 16 MB (an organisation-sized catalog) is written and read back whole', (t) => {
  const file = join(tempDir(t), 'state', 'catalog.json');
  const cache: CatalogCacheFile = { version: 2, servers: {} };
  // 1,000 servers × 30 tools with 700-character descriptions: about 23 MB of JSON.
  for (let s = 0; s < 1000; s++) {
    const server = `team${s}-service`;
    const tools = Array.from({ length: 30 }, (_, i) => ({
      server,
      name: `tool_${i}`,
      description: `Tool ${i} of ${server}. ${'It does one documented thing with its inputs. '.repeat(15)}`,
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The id' } } },
    }));
    cache.servers[server] = { fingerprint: `fp${s}`, listedAt: 1, tools };
  }
  writeCatalogCache(file, cache);
  assert.ok(statSync(file).size > 16 * 1024 * 1024, `the cache is ${statSync(file).size} bytes`);
  const read = readCatalogCache(file);
  assert.equal(Object.keys(read.servers).length, 1000);
  assert.equal(read.servers['team999-service']?.tools.length, 30);
  assert.deepEqual(read.servers['team500-service']?.tools[7], cache.servers['team500-service']!.tools[7]);
});

test('a private file is read whole up to the limit its reader gives, and refused past it', (t) => {
  const file = join(tempDir(t), 'state.json');
  writeFileSync(file, 'x'.repeat(1000), { mode: 0o600 });
  assert.deepEqual(readPrivateFile(file, 1000), { text: 'x'.repeat(1000) });
  assert.ok('refused' in readPrivateFile(file, 999));
  writeFileSync(file, '', { mode: 0o600 });
  assert.deepEqual(readPrivateFile(file), { text: '' });
});

test('the cache is written server by server as exactly the JSON of the whole, and identical schemas are read back as one object', (t) => {
  const file = join(tempDir(t), 'catalog.json');
  const schema = () => ({
    type: 'object',
    properties: { repo: { type: 'string', description: 'owner/name' } },
    required: ['repo'],
  });
  const cache: CatalogCacheFile = {
    version: 2,
    servers: {
      'payments-github': {
        fingerprint: 'a',
        listedAt: 1,
        tools: [{ server: 'payments-github', name: 'get_issue', description: 'Get an issue.', inputSchema: schema() }],
      },
      'search-github': {
        fingerprint: 'b',
        listedAt: 2,
        tools: [{ server: 'search-github', name: 'get_issue', description: 'Get an "issue".', inputSchema: schema() }],
      },
      other: {
        fingerprint: 'c',
        listedAt: 3,
        tools: [{ server: 'other', name: 'x', inputSchema: { type: 'object' } }],
      },
      broken: { fingerprint: 'd', listedAt: 4, tools: [], failed: 'exited with code 1' },
    },
    tokenCounts: { abc: 12 },
  };
  writeCatalogCache(file, cache);
  assert.deepEqual(readPrivateFile(file), { text: JSON.stringify(cache) });
  const read = readCatalogCache(file);
  assert.deepEqual(read, { servers: cache.servers, tokenCounts: { abc: 12 } });
  const a = read.servers['payments-github']!.tools[0]!.inputSchema;
  assert.equal(a, read.servers['search-github']!.tools[0]!.inputSchema, 'one object for two equal schemas');
  assert.notEqual(a, read.servers.other!.tools[0]!.inputSchema);
  writeCatalogCache(file, { version: 2, servers: {} });
  assert.deepEqual(readPrivateFile(file), { text: '{"version":2,"servers":{}}' });
});
