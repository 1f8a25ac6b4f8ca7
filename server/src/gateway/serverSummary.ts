/**
 * A one-line summary of what a server's tools do, for list_servers, without a model: the
 * words that occur in the most of its tool names and descriptions (core/toolVocabulary.ts).
 * Good enough for an agent to tell "browser" servers from "issues" servers at a glance.
 */
import { plural } from '../../../protocol/figureText';
import type { CatalogTool } from '../core/catalog';
import { topWords } from '../core/toolVocabulary';

/** `e.g. "8 tools: browser, page, click, tab, screenshot"`; words ranked by how many tools use them. */
export function summarizeTools(tools: readonly CatalogTool[], maxWords = 6): string {
  if (tools.length === 0) return 'no tools';
  const picked = topWords(tools, maxWords);
  const count = plural(tools.length, 'tool');
  return picked.length ? `${count}: ${picked.join(', ')}` : count;
}
