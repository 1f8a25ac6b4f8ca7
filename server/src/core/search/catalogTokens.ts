/**
 * The candidate stage's reading of a catalog (candidates.ts): every tool's four own fields as
 * term ids (docTokens.ts), in the order BM25F sums them — a field's words (split, stop words
 * dropped, stemmed), then its adjacent-word pairs, then its camel-case names whole, and for the
 * parameters the shapes of the ids the tool shows as examples. Also each tool's words
 * (unigrams of all four fields) for its TermSet, and its name's words for the re-rank signals.
 *
 * An organisation's catalog repeats names, servers and parameter lists across thousands of
 * tools (the same service deployed by many teams): a field text read once is not read again in
 * the same build, its ids are copied. Descriptions, nearly all distinct, are always read.
 */
import type { CatalogTool } from '../catalog';
import { OWN_FIELDS, type OwnFieldName } from './bm25f';
import type { Postings } from './bm25fPostings';
import { DocTokensBuilder, type DocTokens } from './docTokens';
import { NEGATED, splitNegation } from './negationScope';
import { idShapes, splitLiterals } from './queryLiterals';
import { joinedCamelWords, STOP_WORDS } from './tokenize';
import { schemaStrings, toolFields, type ToolFields } from './toolFields';

export interface CatalogTokens {
  /** The four own fields of every tool (the BM25F documents). */
  tokens: DocTokens;
  /** Each tool's words (the unigrams of its four fields), as ids. */
  words: DocTokens;
  /** Each tool's name words, in order (shared between tools of the same name: read-only). */
  nameTerms: (readonly string[])[];
  /**
   * BM25F's postings over `tokens` (bm25fPostings.ts), when kept with them: a function of the
   * tokens and the field parameters alone, named by `fields` (the FieldConfig as JSON).
   */
  bm25?: { fields: string; postings: Postings };
}

export interface TokenizeOptions {
  /** A text's index terms (split, stop words dropped, stemmed). */
  termsOf: (text: string) => string[];
  stem: (word: string) => string;
  bigrams: boolean;
  shapes: boolean;
  /** Words in a negation's scope in a description are not read (negationScope.ts): how many at most; 0 = off. */
  negation: number;
  /** Whether a tool lends its name and description to its server's other tools as context. */
  lends: (tool: CatalogTool) => boolean;
}

/** One field's reading, kept for the same text in another tool. */
interface FieldReading {
  ids: Int32Array;
  /** How many of `ids` are the field's words (the rest: pairs and camel-case names). */
  unigrams: number;
  terms: readonly string[];
}

const REMEMBERED: ReadonlySet<OwnFieldName> = new Set(['name', 'server', 'params']);
/** Where a camel-case name (joinedCamelWords) can start: a lowercase letter followed by an uppercase one. */
const CAMEL_BOUNDARY = /\p{Ll}\p{Lu}/u;

export function tokenizeCatalog(tools: readonly CatalogTool[], o: TokenizeOptions): CatalogTokens {
  const tokens = new DocTokensBuilder();
  const words = new DocTokensBuilder(tokens.table);
  const nameTerms: (readonly string[])[] = [];
  const read = new Map<OwnFieldName, Map<string, FieldReading>>(OWN_FIELDS.map((f) => [f, new Map()]));
  const shapes = new Map<string, string[]>();
  const shapesOf = (text: string) => {
    let known = shapes.get(text);
    if (!known) shapes.set(text, (known = idShapesIn(text)));
    return known;
  };
  for (const tool of tools) {
    const fields = toolFields(tool);
    // What a description says the tool does not do is no evidence that it does it: those words
    // are read as negated terms (¬read), which keep the description's length as it was.
    const negation = o.negation > 0 ? splitNegation(fields.description, o.negation) : undefined;
    if (negation) fields.description = negation.affirmed;
    for (const f of OWN_FIELDS) {
      const text = fields[f];
      const memo = REMEMBERED.has(f) ? read.get(f)! : undefined;
      const known = memo?.get(text);
      if (known) for (let i = 0; i < known.ids.length; i++) tokens.pushId(known.ids[i]!);
      const reading = known ?? readField(tokens, text, o);
      if (memo && !known) memo.set(text, { ...reading, ids: reading.ids.slice() });
      for (let i = 0; i < reading.unigrams; i++) words.pushId(reading.ids[i]!);
      words.endField();
      if (f === 'name') nameTerms.push(reading.terms);
      if (f === 'description' && negation?.negated)
        for (const t of o.termsOf(negation.negated)) tokens.push(NEGATED + t);
      // The shapes of the ids a tool shows as examples ("IMDb id, ex: tt0000002", "e.g.,
      // ABC-123"), once each: a request's id of the same shape is a value this tool takes.
      if (f === 'params' && o.shapes) for (const shape of exampleIdShapes(fields, tool, shapesOf)) tokens.push(shape);
      tokens.endField();
    }
    const lends = o.lends(tool);
    tokens.endDocument(tool.server, lends);
    words.endDocument(tool.server, lends);
  }
  return { tokens: tokens.finish(), words: words.finish(), nameTerms };
}

/** Appends one field's terms to the field being read; `ids` is a view of what was appended (valid until the next push). */
function readField(tokens: DocTokensBuilder, text: string, o: TokenizeOptions): FieldReading {
  const unigrams = o.termsOf(text);
  for (const t of unigrams) tokens.push(t);
  const ids = tokens.currentField();
  if (o.bigrams) for (let i = 1; i < unigrams.length; i++) tokens.pushId(tokens.table.bigram(ids[i - 1]!, ids[i]!));
  // GitHub is indexed as git, hub and github, so a request that writes the name whole meets it.
  // (A text with no lowercase letter before an uppercase one has no such name: most
  // descriptions, which are then not matched word by word.)
  if (CAMEL_BOUNDARY.test(text)) for (const w of joinedCamelWords(text)) if (!STOP_WORDS.has(w)) tokens.push(o.stem(w));
  return { ids: tokens.currentField(), unigrams: unigrams.length, terms: unigrams };
}

/** The shapes of the generated ids a tool's description and schema show as examples; `shapesOf` reads one text. */
function exampleIdShapes(fields: ToolFields, tool: CatalogTool, shapesOf: (text: string) => string[]): string[] {
  // Only texts with a digit can hold one (most descriptions have none).
  const texts = [fields.description, ...schemaStrings(tool.inputSchema, 2)].filter((t) => /\d/.test(t));
  return [...new Set(texts.flatMap(shapesOf))];
}

/** The shapes of the ids a text holds (queryLiterals.ts), in order. */
function idShapesIn(text: string): string[] {
  return splitLiterals(text)
    .literals.filter((l) => l.kind === 'id')
    .flatMap((l) => idShapes(l.text));
}
