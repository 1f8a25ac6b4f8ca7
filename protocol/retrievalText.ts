/**
 * The words for live retrieval quality (model.ts RetrievalStats), shared by the dashboard and
 * `mcp-lens stats` so both say the same thing, including what a falling hit rate means.
 * Pure: no I/O.
 */
import { percentText, plural } from './figureText';
import type { RetrievalStats, RetrievalWindow, SearchModeInfo } from './model';

/** The three rates of a window, as percentages with what they are out of. */
export interface RetrievalRates {
  /** Picks whose tool ranked first, e.g. "62%". */
  top1: string;
  top5: string;
  /** Calls made without a find_tools first. */
  unsearched: string;
  /** "8 of 13 picks" */
  top1Of: string;
  top5Of: string;
  unsearchedOf: string;
}

export function retrievalRates(w: RetrievalWindow): RetrievalRates {
  return {
    top1: percentText(w.top1, w.picks),
    top5: percentText(w.top5, w.picks),
    unsearched: percentText(w.unsearched, w.calls),
    top1Of: `${w.top1} of ${plural(w.picks, 'pick')}`,
    top5Of: `${w.top5} of ${plural(w.picks, 'pick')}`,
    unsearchedOf: `${w.unsearched} of ${plural(w.calls, 'call')}`,
  };
}

/** "the last 10 sessions" (or "the last session"): what the figures cover. */
export function windowText(w: RetrievalWindow, which: 'last' | 'earlier'): string {
  if (which === 'last') return w.sessions === 1 ? 'the last session' : `the last ${plural(w.sessions, 'session')}`;
  return `the ${plural(w.sessions, 'session')} before`;
}

/** One sentence on the trend, or undefined when there is none to tell yet. */
export function trendText(r: RetrievalStats): string | undefined {
  if (!r.trend || !r.earlier) return undefined;
  const now = retrievalRates(r.recent);
  const then = retrievalRates(r.earlier);
  const figures = `${now.top1} at rank 1 and ${now.top5} in the top 5, against ${then.top1} and ${then.top5} in ${windowText(r.earlier, 'earlier')}`;
  if (r.trend === 'falling') return `Falling: ${figures}.`;
  if (r.trend === 'rising') return `Rising: ${figures}.`;
  return `Steady: ${figures}.`;
}

/** How the figures are measured, for people who wonder what "a pick" is. */
export const RETRIEVAL_EXPLAINED =
  'When an agent calls a tool right after find_tools, MCP Lens notes where that tool stood in the answer (the rank only, never the query or the arguments).';

/**
 * What a falling hit rate means and what to do about it, naming the settings that change it.
 * `mode` tailors the advice: in keyword mode, meaning-based search with Ollama is the bigger lever.
 */
export function retrievalAdvice(mode?: SearchModeInfo['kind']): string {
  const descriptions =
    'the tools agents pick are described in words the search does not match: give them clearer descriptions, or pin the ones agents use every day (mcpLens.pinnedTools, with mcpLens.exposure "pinned")';
  if (mode === 'hybrid')
    return `A falling rate means ${descriptions}, and check that Ollama still answers (mcpLens.ollama.host).`;
  if (mode === 'keyword')
    return `A falling rate means ${descriptions}, or search by meaning too: run Ollama with the model mcpLens.embedding.model names (mcpLens.embedding.enabled must be on).`;
  return `A falling rate means ${descriptions}, or search by meaning too with Ollama (mcpLens.embedding.enabled, mcpLens.embedding.model).`;
}

/** The advice when it applies (the rate is falling), else undefined: a steady 100% needs none. */
export function retrievalAdviceFor(r: RetrievalStats, mode?: SearchModeInfo['kind']): string | undefined {
  return r.trend === 'falling' ? retrievalAdvice(mode) : undefined;
}

/** Why calls "without a find_tools first" are there, so a high share is not read as a fault. */
export const UNSEARCHED_EXPLAINED =
  'Calls without a find_tools first went to tools the agent already knew: pinned, predicted or listed in full by the exposure mode, or remembered from before.';
