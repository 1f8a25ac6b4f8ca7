import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionAgreement as agreement, actionLexicon, toolAction } from '../../server/src/core/search/actions';
import { CandidateIndex, type CatalogView, type IndexedTool } from '../../server/src/core/search/candidates';
import { DEFAULT_KEYWORD_CONFIG } from '../../server/src/core/search/keywordConfig';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { rerankSignal, SAYS_NOTHING, type SignalProfile } from '../../server/src/core/search/rerankSignal';
import { actionAgreement } from '../../server/src/core/search/signals/actionAgreement';
import { literalSlots } from '../../server/src/core/search/signals/literalSlots';
import { productMention } from '../../server/src/core/search/signals/productMention';
import { SMALL_CATALOG } from '../fixtures/catalogRows';

/**
 * A re-rank signal's profile reads a tool when a search first has it as a candidate, and once:
 * not the whole catalog each time the catalog is indexed (a warm start's first find_tools paid
 * for every tool while the servers spawned). `reads` counts, per document, how often the
 * signal read what it derives from the tool (its name terms, its terms, its schema's properties).
 */
function countedView(view: CatalogView, reads: number[]): CatalogView {
  const tools: IndexedTool[] = view.tools.map((t, doc) => {
    const nameTerms = new Proxy([...t.nameTerms], {
      get(target, prop, receiver) {
        if (prop === 'length') reads[doc]!++;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const schema = t.tool.inputSchema as { properties?: unknown };
    const inputSchema = {
      ...schema,
      get properties() {
        reads[doc]!++;
        return schema.properties;
      },
    };
    const terms = new Proxy(t.terms, {
      get(target, prop) {
        if (prop === 'forEach') reads[doc]!++;
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    return { ...t, nameTerms, terms, tool: { ...t.tool, inputSchema } };
  });
  return { ...view, tools };
}

function profiled(
  signal: typeof actionAgreement | typeof literalSlots | typeof productMention,
  knobs: Record<string, number>,
) {
  const reads = SMALL_CATALOG.map(() => 0);
  let expectedActions: ReturnType<typeof toolAction>[] = [];
  const { index, profiled: profile } = CandidateIndex.build(
    SMALL_CATALOG,
    DEFAULT_KEYWORD_CONFIG,
    (view): SignalProfile => {
      // What the signal read at once (before: every tool's), computed here the eager way for comparison.
      const lex = actionLexicon(view.stem);
      expectedActions = view.tools.map((t) =>
        toolAction(
          [...t.nameTerms],
          view.termsOf(t.tool.description.split(/\s+/).slice(0, 8).join(' ')),
          lex,
          view.stem,
        ),
      );
      return (signal.profile as (v: CatalogView, k: Record<string, number>) => SignalProfile)(
        countedView(view, reads),
        knobs,
      );
    },
  );
  return { index, profile, reads, expectedActions };
}

test('action agreement reads a tool when it is first a candidate, once, and weighs it as the whole-catalog reading did', () => {
  const { index, profile, reads, expectedActions } = profiled(actionAgreement, { action: 0.3, soloAction: 0.5 });
  assert.deepEqual(reads, [0, 0, 0, 0, 0, 0, 0], 'nothing read while the catalog is indexed');
  const request = index.analyse('list the issues of my repository');
  assert.ok(request.action, 'the request says what to do');
  const candidates = [5, 4];
  const factor = profile.analyse(request, candidates)!;
  const touched = reads.map((n) => n > 0);
  assert.deepEqual(touched, [false, false, false, false, true, true, false], 'only the candidates are read');
  // The factors the eager profile gave: 1 + weight × focus × agreement, the unknown ones the candidates' mean.
  const known = candidates.map((d) => expectedActions[d]).filter((a) => a !== undefined);
  const mean = known.reduce((s, a) => s + agreement(request.action, a), 0) / Math.max(known.length, 1);
  for (const doc of candidates) {
    const a = expectedActions[doc];
    assert.equal(factor(doc), 1 + 0.3 * request.focus * (a ? agreement(request.action, a) : mean), `doc ${doc}`);
  }
  const before = [...reads];
  profile.analyse(index.analyse('create a repository'), candidates)!(4);
  assert.deepEqual(reads, before, 'a tool already read is not read again');
});

test('literal kind ↔ parameter reads a tool only when a request with a literal has it as a candidate, once', () => {
  const { index, profile, reads } = profiled(literalSlots, { slots: 0.5 });
  assert.deepEqual(reads, [0, 0, 0, 0, 0, 0, 0]);
  assert.equal(
    profile.analyse(index.analyse('open the page'), [1, 0]),
    undefined,
    'no literal: nothing to weigh, nothing read',
  );
  assert.deepEqual(reads, [0, 0, 0, 0, 0, 0, 0]);
  const factor = profile.analyse(index.analyse('navigate to https://example.com/docs'), [1, 0])!;
  assert.ok(factor(1) > 1, 'browser_navigate has a url parameter');
  assert.equal(factor(0), 1, 'browser_take_screenshot has none');
  assert.deepEqual(
    reads.map((n) => n > 0),
    [true, true, false, false, false, false, false],
  );
  const before = [...reads];
  factor(1);
  factor(0);
  assert.deepEqual(reads, before, 'read once');
});

test("product mentions read the servers' names at the first search, once, not while the catalog is indexed", () => {
  const { index, profile, reads } = profiled(productMention, { serverMention: 1 });
  assert.deepEqual(reads, [0, 0, 0, 0, 0, 0, 0]);
  const factor = profile.analyse(index.analyse('list the open issues in GitHub'), [5, 6])!;
  assert.ok(factor(5) > 1, 'a tool of the server named');
  assert.equal(factor(6), 1);
  assert.deepEqual(reads, [1, 1, 1, 1, 1, 1, 1], "every tool's terms read once, for the servers' words");
  profile.analyse(index.analyse('create a repository on github'), [4]);
  assert.deepEqual(reads, [1, 1, 1, 1, 1, 1, 1], 'not again');
});

test('an empty keyword index makes no signal profile; its first catalog does, once', () => {
  let profiles = 0;
  const counting = rerankSignal({
    name: 'counting',
    knobs: [],
    profile: () => (profiles++, SAYS_NOTHING),
  });
  const index = new KeywordIndex([], DEFAULT_KEYWORD_CONFIG, [counting]);
  assert.equal(profiles, 0, 'nothing to profile yet');
  assert.deepEqual(index.searchSync('read a file', { limit: 3 }), []);
  index.setTools(SMALL_CATALOG);
  assert.equal(profiles, 1);
  assert.equal(index.searchSync('read file contents', { limit: 1 })[0]?.key, 'filesystem/read_file');
});
