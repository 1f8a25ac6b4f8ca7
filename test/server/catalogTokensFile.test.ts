// The keyword index's reading of the catalog kept between runs (adapters/catalogTokensFile.ts,
// core/search/catalogTokensCodec.ts), on a real temp folder and the recorded 19-server catalog:
// an index built from the stored reading ranks exactly as one that read the catalog itself; a
// changed catalog or another build is a miss; a file MCP Lens did not write (a link, 0644, a
// damaged one) is never used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogTokensFile } from '../../server/src/adapters/catalogTokensFile';
import type { CatalogTokens } from '../../server/src/core/search/catalogTokens';
import { KeywordIndex, RERANK_SIGNALS } from '../../server/src/core/search/keywordIndex';
import { DEFAULT_KEYWORD_CONFIG } from '../../server/src/core/search/keywordConfig';
import { catalogToolsOf } from '../../bench/src/dataset';
import { recordedCatalogFile } from '../../bench/src/benchFiles';
import { silentLogger } from '../../server/src/core/logger';
import type { CatalogTool } from '../../server/src/core/catalog';

const QUERIES = [
  'create an issue in a repository',
  'take a screenshot of the current web page',
  'list Kubernetes pods in a namespace',
  'ID tt0000002',
  'wipe the file',
];

function recordedTools(): CatalogTool[] {
  const raw = JSON.parse(readFileSync(recordedCatalogFile(), 'utf8')) as {
    servers: Record<string, { tools: { name: string }[] }>;
  };
  return catalogToolsOf(
    Object.entries(raw.servers).flatMap(([server, s]) => s.tools.map((t) => ({ ...t, server }))) as never,
  );
}

/** The file, with what each get/set did. */
function tokensFile(file: string) {
  const cache = new CatalogTokensFile(file, silentLogger);
  const seen = { hits: 0, misses: 0, sets: 0 };
  return {
    seen,
    cache: {
      build: cache.build,
      maxTools: cache.maxTools,
      get(key: string, tools: number): CatalogTokens | undefined {
        const got = cache.get(key, tools);
        seen[got ? 'hits' : 'misses']++;
        return got;
      },
      set(key: string, tokens: CatalogTokens): void {
        seen.sets++;
        cache.set(key, tokens);
      },
      flush: () => cache.flush(),
    },
  };
}

const ranked = (index: KeywordIndex) => QUERIES.map((q) => index.rank(q, { limit: 10 }));

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-catalog-tokens-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('an index built from the stored reading of the catalog ranks exactly as one that read the catalog itself', (t) => {
  const file = join(tempDir(t), 'catalog-tokens.json');
  const tools = recordedTools();
  const fresh = new KeywordIndex(tools);

  const first = tokensFile(file);
  new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, first.cache);
  assert.deepEqual(first.seen, { hits: 0, misses: 1, sets: 1 });
  first.cache.flush();
  assert.equal(statSync(file).mode & 0o777, 0o600);

  const second = tokensFile(file);
  const fromFile = new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, second.cache);
  assert.deepEqual(second.seen, { hits: 1, misses: 0, sets: 0 });
  assert.deepEqual(ranked(fromFile), ranked(fresh));
  assert.ok(ranked(fresh).every((r) => r.hits.length > 0));
});

test("BM25F's postings are kept with the tokens: a warm build reads them, other field weights build their own", (t) => {
  const file = join(tempDir(t), 'catalog-tokens.json');
  const tools = recordedTools();
  const first = tokensFile(file);
  new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, first.cache);
  first.cache.flush();
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { bm25?: { fields: string; tf: string } };
  assert.equal(stored.bm25?.fields, JSON.stringify(DEFAULT_KEYWORD_CONFIG.fields));

  // What is read is used as it is: postings with every own-field frequency zeroed (well-formed)
  // rank nothing by those fields, so a warm index that rebuilt them would still find these.
  const tf = new Float32Array(new Uint8Array(Buffer.from(stored.bm25!.tf, 'base64')).buffer);
  const zeroed = {
    ...stored,
    bm25: { ...stored.bm25!, tf: Buffer.from(new Float32Array(tf.length).buffer).toString('base64') },
  };
  writeFileSync(file, JSON.stringify(zeroed), { mode: 0o600 });
  const fresh = new KeywordIndex(tools);
  const fromZeroed = new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, tokensFile(file).cache);
  assert.notDeepEqual(ranked(fromZeroed), ranked(fresh));

  // Other field weights: the tokens are read, the postings built anew and kept (the ranking is that config's).
  const heavierName = {
    ...DEFAULT_KEYWORD_CONFIG,
    fields: {
      ...DEFAULT_KEYWORD_CONFIG.fields,
      name: { ...DEFAULT_KEYWORD_CONFIG.fields.name, weight: DEFAULT_KEYWORD_CONFIG.fields.name.weight * 2 },
    },
  };
  const other = tokensFile(file);
  const reweighted = new KeywordIndex(tools, heavierName, RERANK_SIGNALS, other.cache);
  assert.deepEqual(other.seen, { hits: 1, misses: 0, sets: 1 });
  assert.deepEqual(ranked(reweighted), ranked(new KeywordIndex(tools, heavierName)));
  other.cache.flush();
  assert.equal(
    (JSON.parse(readFileSync(file, 'utf8')) as { bm25: { fields: string } }).bm25.fields,
    JSON.stringify(heavierName.fields),
  );
});

test('a changed catalog, or another reading of it, is read again', (t) => {
  const file = join(tempDir(t), 'catalog-tokens.json');
  const tools = recordedTools();
  const first = tokensFile(file);
  new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, first.cache);
  first.cache.flush();

  // One description changed: another key.
  const changed = tools.map((x, i) => (i === 7 ? { ...x, description: `${x.description} Also renames branches.` } : x));
  const second = tokensFile(file);
  const index = new KeywordIndex(changed, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, second.cache);
  assert.deepEqual(second.seen, { hits: 0, misses: 1, sets: 1 });
  assert.equal(index.rank('renames branches', { limit: 1 }).hits[0]?.key, changed[7]!.key);

  // The same tools read another way (no stemming): another key.
  const third = tokensFile(file);
  new KeywordIndex(tools, { ...DEFAULT_KEYWORD_CONFIG, stem: 'none' }, RERANK_SIGNALS, third.cache);
  assert.deepEqual(third.seen, { hits: 0, misses: 1, sets: 1 });
});

test('a tokens file MCP Lens did not write is never used: a link, one others can read, a damaged one', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'catalog-tokens.json');
  const tools = recordedTools();
  const first = tokensFile(file);
  new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, first.cache);
  first.cache.flush();
  const good = readFileSync(file, 'utf8');
  const missOn = (what: string) => {
    const again = tokensFile(file);
    const index = new KeywordIndex(tools, DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, again.cache);
    assert.equal(again.seen.hits, 0, what);
    assert.ok(index.rank('create an issue in a repository', { limit: 3 }).hits.length > 0, what);
  };

  // Shipped with the default mode of a checkout.
  chmodSync(file, 0o644);
  missOn('a 0644 file');
  // A link to a file that is otherwise good.
  const target = join(dir, 'elsewhere.json');
  writeFileSync(target, good, { mode: 0o600 });
  rmSync(file);
  symlinkSync(target, file);
  missOn('a link');
  rmSync(file);
  // The right key with an id past the term table: checked, not trusted.
  const damaged = JSON.parse(good) as { tokens: { ids: string } };
  const ids = new Int32Array(new Uint8Array(Buffer.from(damaged.tokens.ids, 'base64')).buffer);
  ids[3] = 1 << 30;
  damaged.tokens.ids = Buffer.from(ids.buffer).toString('base64');
  writeFileSync(file, JSON.stringify(damaged), { mode: 0o600 });
  missOn('an id out of range');
  // A posting of a document past the catalog's end.
  const badPosting = JSON.parse(good) as { bm25: { docs: string } };
  const docs = new Int32Array(new Uint8Array(Buffer.from(badPosting.bm25.docs, 'base64')).buffer);
  docs[0] = tools.length;
  badPosting.bm25.docs = Buffer.from(docs.buffer).toString('base64');
  writeFileSync(file, JSON.stringify(badPosting), { mode: 0o600 });
  missOn('a posting out of range');
  writeFileSync(file, good.slice(0, good.length / 2), { mode: 0o600 });
  missOn('a cut file');
  assert.ok(existsSync(target), 'the link target is left alone');
});
