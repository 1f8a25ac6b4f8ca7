/**
 * Token accounting for the gateway, with one meaning of "saved": tokens the agent's model did
 * not read, against connecting every server directly.
 *
 * - Per request: every request the agent's model sends carries the tool list. The baseline is
 *   what it would carry connected to every upstream server directly (each server's `tools/list`,
 *   original names, summed); "exposed" is what MCP Lens's own `tools/list` costs in the current
 *   exposure mode. Saved per request: baseline − exposed.
 * - In total: each agent tool call MCP Lens answers (call_tool, run_code, a tool listed directly)
 *   came from one model request that carried the session's exposed list instead of the baseline:
 *   + (baseline − exposed). Each search (find_tools, get_tool_schema, list_servers) is a request
 *   the agent would not need without MCP Lens: − (exposed + its answer). Results narrowed by
 *   select or max_output_tokens, and the results run_code kept out of the model: + what they
 *   kept out. The per-request figure times the calls is thus what the calls saved, and the
 *   total says what the searches cost against it.
 */
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS } from '../../../protocol/metaToolNames';
import type { SavingsPoint, TokenStats } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { countTokens, savingsPercent, toolListTokens, type ToolDefinitionLike } from '../core/tokens';
import {
  countCatalogTokensPaced,
  countCatalogTokensUpTo,
  knownCatalogTokens,
  type CatalogTokens,
} from '../core/toolListTokens';

/** History points kept for the dashboard's chart. */
const MAX_HISTORY = 1000;
/**
 * Tools a find_tools may tokenize before it answers (tens of ms): a workspace's catalog, a few
 * hundred tools, is counted at once as it changes; an organisation's (100,000 tools: seconds)
 * in the background, and its answers leave the baseline out until it is known.
 */
const COUNT_NOW_TOOLS = 1000;
/** Tool calls waiting for the baseline to record their savings. */
const MAX_PENDING = 10_000;

export interface CatalogCost {
  /** Short hash of every tool definition: changes exactly when the catalog's cost can. */
  version: string;
  baselineTokens: number;
  perServer: { server: string; tokens: number; tools: number }[];
}

export interface SessionSavings {
  findToolsCalls: number;
  returnedTokens: number;
  savedTokens: number;
}

export interface TokenAccountingOptions {
  /**
   * The tokens of the tools/list a session gets now, for a session that called a tool before
   * it ever listed them (the gateway's exposure for that session).
   */
  exposedFor?: (sessionId: string) => number;
}

export class TokenAccounting {
  private cost: CatalogCost | undefined;
  /** The tools array `cost` was computed from: the Lens hands out a new array when its catalog changes. */
  private costOf: readonly CatalogTool[] | undefined;
  /** The tools array being counted in the background. */
  private countingOf: readonly CatalogTool[] | undefined;
  private stopped = false;
  /** Tool calls answered while the baseline was being counted; recorded once it is known. */
  private pending: { sessionId: string; exposedTokens: number; at: number }[] = [];
  private readonly listMemo = new Map<string, number>();
  private findToolsCalls = 0;
  private returnedTotal = 0;
  private savedTotal = 0;
  private readonly requests = { toolCalls: 0, toolCallSavedTokens: 0, searches: 0, searchTokens: 0 };
  private readonly history: SavingsPoint[] = [];
  private readonly shaping = { results: 0, savedTokens: 0 };
  private readonly codeMode = { runs: 0, innerCalls: 0, savedTokens: 0 };
  private readonly sessions = new Map<string, SessionSavings>();
  /** Tokens of the tools/list each session was last given: what its model's requests carry. */
  private readonly listed = new Map<string, number>();
  /** Result tokens kept out of the model during each session's call in flight, shown with that call's point. */
  private readonly keptOut = new Map<string, number>();

  constructor(private readonly options: TokenAccountingOptions = {}) {}

  /**
   * Baseline and per-server cost of these tools, from the same per-tool counts the server
   * statuses use (core/toolListTokens.ts), so both show one figure. Tools not counted yet are
   * counted now when they are few (COUNT_NOW_TOOLS), else in the background: meanwhile the last
   * complete cost stands, or none before the first.
   */
  catalogCost(tools: readonly CatalogTool[]): CatalogCost | undefined {
    // Every find_tools call and every stats poll asks.
    if (this.cost && tools === this.costOf) return this.cost;
    if (this.countingOf === tools) return this.cost;
    const counted = knownCatalogTokens(tools) ?? countCatalogTokensUpTo(tools, COUNT_NOW_TOOLS);
    if (!counted) {
      void this.countInBackground(tools);
      return this.cost;
    }
    return this.adopt(tools, counted);
  }

  /** A count under way stops at its next turn (the gateway is closing). */
  stop(): void {
    this.stopped = true;
  }

  private adopt(tools: readonly CatalogTool[], counted: CatalogTokens): CatalogCost {
    this.costOf = tools;
    if (this.cost?.version !== counted.version) {
      const perServer = [...counted.perServer].map(([server, row]) => ({
        server,
        tokens: row.tokens,
        tools: row.tools,
      }));
      perServer.sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
      this.cost = { version: counted.version, baselineTokens: perServer.reduce((n, s) => n + s.tokens, 0), perServer };
    }
    const baseline = this.cost.baselineTokens;
    // A session closed meanwhile keeps its late saving in the totals only.
    for (const p of this.pending.splice(0))
      this.addToolCall(this.sessions.has(p.sessionId) ? p.sessionId : undefined, baseline - p.exposedTokens, p.at);
    return this.cost;
  }

  private async countInBackground(tools: readonly CatalogTool[]): Promise<void> {
    this.countingOf = tools;
    const counted = await countCatalogTokensPaced(tools, {
      pause: () => new Promise((resolve) => setImmediate(resolve)),
      stopped: () => this.stopped || this.countingOf !== tools,
    });
    if (this.countingOf !== tools) return;
    this.countingOf = undefined;
    if (counted) this.adopt(tools, counted);
  }

  /** Tokens of a tools/list we serve; memoized by content since `all` mode lists can be large. */
  exposedTokens(definitions: readonly ToolDefinitionLike[]): number {
    const key = createHash('sha256').update(JSON.stringify(definitions)).digest('hex');
    const known = this.listMemo.get(key);
    if (known !== undefined) return known;
    const tokens = toolListTokens(definitions);
    if (this.listMemo.size > 16) this.listMemo.clear();
    this.listMemo.set(key, tokens);
    return tokens;
  }

  /** The tokens of the tools/list a session was just given: what its model's requests carry from now on. */
  noteListed(sessionId: string, tokens: number): void {
    this.listed.set(sessionId, tokens);
  }

  private exposedOf(sessionId: string): number {
    return this.listed.get(sessionId) ?? this.options.exposedFor?.(sessionId) ?? 0;
  }

  /**
   * One agent tool call (call_tool, run_code, a tool listed directly): the model request that
   * made it carried the session's tool list instead of the baseline. Without a baseline (still
   * being counted) it is recorded once the count ends.
   */
  recordToolCall(sessionId: string, baselineTokens: number | undefined, at = Date.now()): void {
    const exposedTokens = this.exposedOf(sessionId);
    if (baselineTokens !== undefined) this.addToolCall(sessionId, baselineTokens - exposedTokens, at);
    else if (this.pending.length < MAX_PENDING) this.pending.push({ sessionId, exposedTokens, at });
  }

  /**
   * One find_tools answer of `returnedTokens`: a search (recordSearch), counted apart too, since
   * find_tools answers are what search mode trades the full tool list for.
   */
  recordFindTools(sessionId: string, returnedTokens: number, at = Date.now()): void {
    this.findToolsCalls++;
    this.returnedTotal += returnedTokens;
    const s = this.sessionFigures(sessionId);
    s.findToolsCalls++;
    s.returnedTokens += returnedTokens;
    this.recordSearch(sessionId, returnedTokens, at);
  }

  /**
   * One search (find_tools, get_tool_schema, list_servers): a request the agent makes only
   * because MCP Lens lists no tool directly, so its tool list and its answer are a cost.
   */
  recordSearch(sessionId: string, answerTokens: number, at = Date.now()): void {
    const cost = this.exposedOf(sessionId) + answerTokens;
    this.requests.searches++;
    this.requests.searchTokens += cost;
    this.addPoint(sessionId, 'search', answerTokens, -cost, at);
  }

  /** Records a call_tool result narrowed or cut for the model; its point is its call's (recordToolCall). */
  recordShaping(sessionId: string, fullTokens: number, returnedTokens: number): void {
    const saved = Math.max(0, fullTokens - returnedTokens);
    this.shaping.results++;
    this.shaping.savedTokens += saved;
    this.keepOut(sessionId, saved);
  }

  /**
   * Records one run_code script: `innerTokens` is what its calls' results would have cost
   * through call_tool one by one, `returnedTokens` what the script handed back.
   */
  recordRunCode(sessionId: string, innerCalls: number, innerTokens: number, returnedTokens: number): void {
    const saved = Math.max(0, innerTokens - returnedTokens);
    this.codeMode.runs++;
    this.codeMode.innerCalls += innerCalls;
    this.codeMode.savedTokens += saved;
    this.keepOut(sessionId, saved);
  }

  private addToolCall(sessionId: string | undefined, saved: number, at: number): void {
    this.requests.toolCalls++;
    this.requests.toolCallSavedTokens += saved;
    this.addPoint(sessionId, 'call', 0, saved, at);
  }

  /** Result tokens kept out of the model during a call: added now, shown with the call's point. */
  private keepOut(sessionId: string, saved: number): void {
    this.savedTotal += saved;
    this.keptOut.set(sessionId, (this.keptOut.get(sessionId) ?? 0) + saved);
  }

  private addPoint(
    sessionId: string | undefined,
    kind: SavingsPoint['kind'],
    returnedTokens: number,
    saved: number,
    at: number,
  ): void {
    this.savedTotal += saved;
    const kept = sessionId === undefined ? 0 : (this.keptOut.get(sessionId) ?? 0);
    if (sessionId !== undefined) this.keptOut.delete(sessionId);
    this.history.push({ at, kind, returnedTokens, savedTokens: saved + kept });
    if (this.history.length > MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY);
    if (sessionId !== undefined) this.sessionFigures(sessionId).savedTokens += saved + kept;
  }

  private sessionFigures(sessionId: string): SessionSavings {
    let s = this.sessions.get(sessionId);
    if (!s) this.sessions.set(sessionId, (s = { findToolsCalls: 0, returnedTokens: 0, savedTokens: 0 }));
    return s;
  }

  session(sessionId: string): SessionSavings | undefined {
    const s = this.sessions.get(sessionId);
    return s ? { ...s } : undefined;
  }

  /** Forgets a closed session's figures (the totals keep them). */
  dropSession(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.listed.delete(sessionId);
    this.keptOut.delete(sessionId);
  }

  /** `cost`: undefined while the first is being counted (a baseline of 0, no servers). */
  tokenStats(cost: CatalogCost | undefined, exposedTokens: number): TokenStats {
    cost ??= { version: '', baselineTokens: 0, perServer: [] };
    return {
      baselineTokens: cost.baselineTokens,
      exposedTokens,
      savingsPercent: savingsPercent(cost.baselineTokens, exposedTokens),
      findToolsCalls: this.findToolsCalls,
      returnedTokensTotal: this.returnedTotal,
      savedTokensTotal: this.savedTotal,
      requests: { ...this.requests },
      history: [...this.history],
      perServer: cost.perServer.map((p) => ({ ...p })),
      shaping: { ...this.shaping },
      codeMode: { ...this.codeMode },
    };
  }
}

/**
 * Accounts for one agent tools/call once answered: a search or a tool call. find_tools records
 * itself, with the count its answer states (metaTools.ts).
 */
export function recordAgentRequest(
  accounting: TokenAccounting,
  baselineTokens: () => number | undefined,
  sessionId: string,
  toolName: string,
  result: CallToolResult,
): void {
  if (toolName === FIND_TOOLS) return;
  if (toolName === GET_TOOL_SCHEMA || toolName === LIST_SERVERS) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    accounting.recordSearch(sessionId, countTokens(text));
  } else accounting.recordToolCall(sessionId, baselineTokens());
}

/** Tokens of a response text with its own `returned_tokens` figure inside it (a fixed point, found in a few steps). */
export function selfCountingTokens(render: (returnedTokens: number) => string): { text: string; tokens: number } {
  let tokens = 0;
  let text = render(tokens);
  for (let i = 0; i < 4; i++) {
    const next = countTokens(text);
    if (next === tokens) break;
    tokens = next;
    text = render(tokens);
  }
  return { text, tokens: countTokens(text) };
}
