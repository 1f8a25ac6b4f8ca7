/**
 * Token accounting for the gateway. The baseline is what a client would carry in every
 * request if it connected to every upstream server directly: the tokens of each server's
 * `tools/list` (original names), summed. "Exposed" is what our own `tools/list` costs in the
 * current exposure mode. Each find_tools call returns some tokens where the alternative was
 * carrying the whole catalog, so it saves baseline − returned.
 */
import { createHash } from 'node:crypto';
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
/** find_tools calls waiting for the baseline to record their savings. */
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

export class TokenAccounting {
  private cost: CatalogCost | undefined;
  /** The tools array `cost` was computed from: the Lens hands out a new array when its catalog changes. */
  private costOf: readonly CatalogTool[] | undefined;
  /** The tools array being counted in the background. */
  private countingOf: readonly CatalogTool[] | undefined;
  private stopped = false;
  /** find_tools answers given while the baseline was being counted; recorded once it is known. */
  private pending: { sessionId: string; returnedTokens: number; at: number }[] = [];
  private readonly listMemo = new Map<string, number>();
  private findToolsCalls = 0;
  private returnedTotal = 0;
  private savedTotal = 0;
  private readonly history: SavingsPoint[] = [];
  private readonly shaping = { results: 0, savedTokens: 0 };
  private readonly codeMode = { runs: 0, innerCalls: 0, savedTokens: 0 };
  private readonly sessions = new Map<string, SessionSavings>();

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
      this.addSaving(
        this.sessions.has(p.sessionId) ? p.sessionId : undefined,
        p.returnedTokens,
        Math.max(0, baseline - p.returnedTokens),
        p.at,
      );
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

  /**
   * Records one find_tools response; returns the tokens it saved. Without a baseline (still
   * being counted) its saving is added once the count ends.
   */
  recordFindTools(
    sessionId: string,
    returnedTokens: number,
    baselineTokens: number | undefined,
    at = Date.now(),
  ): number | undefined {
    this.findToolsCalls++;
    this.returnedTotal += returnedTokens;
    const s = this.sessions.get(sessionId) ?? { findToolsCalls: 0, returnedTokens: 0, savedTokens: 0 };
    s.findToolsCalls++;
    s.returnedTokens += returnedTokens;
    this.sessions.set(sessionId, s);
    if (baselineTokens === undefined) {
      if (this.pending.length < MAX_PENDING) this.pending.push({ sessionId, returnedTokens, at });
      return undefined;
    }
    const saved = Math.max(0, baselineTokens - returnedTokens);
    this.addSaving(sessionId, returnedTokens, saved, at);
    return saved;
  }

  /** Records a call_tool result narrowed or cut for the model. */
  recordShaping(sessionId: string, fullTokens: number, returnedTokens: number, at = Date.now()): void {
    const saved = Math.max(0, fullTokens - returnedTokens);
    this.shaping.results++;
    this.shaping.savedTokens += saved;
    this.addSaving(sessionId, returnedTokens, saved, at);
  }

  /**
   * Records one run_code script: `innerTokens` is what its calls' results would have cost
   * through call_tool one by one, `returnedTokens` what the script handed back.
   */
  recordRunCode(
    sessionId: string,
    innerCalls: number,
    innerTokens: number,
    returnedTokens: number,
    at = Date.now(),
  ): void {
    const saved = Math.max(0, innerTokens - returnedTokens);
    this.codeMode.runs++;
    this.codeMode.innerCalls += innerCalls;
    this.codeMode.savedTokens += saved;
    this.addSaving(sessionId, returnedTokens, saved, at);
  }

  private addSaving(sessionId: string | undefined, returnedTokens: number, saved: number, at: number): void {
    this.savedTotal += saved;
    this.history.push({ at, returnedTokens, savedTokens: saved });
    if (this.history.length > MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY);
    if (sessionId === undefined) return;
    const s = this.sessions.get(sessionId) ?? { findToolsCalls: 0, returnedTokens: 0, savedTokens: 0 };
    s.savedTokens += saved;
    this.sessions.set(sessionId, s);
  }

  session(sessionId: string): SessionSavings | undefined {
    const s = this.sessions.get(sessionId);
    return s ? { ...s } : undefined;
  }

  /** Forgets a closed session's figures (the totals keep them). */
  dropSession(sessionId: string): void {
    this.sessions.delete(sessionId);
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
      history: [...this.history],
      perServer: cost.perServer.map((p) => ({ ...p })),
      shaping: { ...this.shaping },
      codeMode: { ...this.codeMode },
    };
  }
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
