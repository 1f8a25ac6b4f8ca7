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
import { countTokens, savingsPercent, ServerListTokens, toolListTokens, type ToolDefinitionLike } from '../core/tokens';

/** History points kept for the dashboard's chart. */
const MAX_HISTORY = 1000;

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
  private readonly listMemo = new Map<string, number>();
  /** The same per-server counting the server statuses use, so both show one figure. */
  private readonly serverLists = new ServerListTokens();
  private findToolsCalls = 0;
  private returnedTotal = 0;
  private savedTotal = 0;
  private readonly history: SavingsPoint[] = [];
  private readonly shaping = { results: 0, savedTokens: 0 };
  private readonly codeMode = { runs: 0, innerCalls: 0, savedTokens: 0 };
  private readonly sessions = new Map<string, SessionSavings>();

  /** Baseline and per-server cost of these tools; tokenized again only when a definition changed. */
  catalogCost(tools: readonly CatalogTool[]): CatalogCost {
    // Every find_tools call and every stats poll asks; hashing 400 definitions costs ~2 ms.
    if (this.cost && tools === this.costOf) return this.cost;
    this.costOf = tools;
    const costs = this.serverLists.costs(tools);
    const servers = [...costs.keys()].sort();
    const hash = createHash('sha256');
    for (const s of servers) hash.update(s).update('\0').update(costs.get(s)!.hash);
    const version = hash.digest('hex').slice(0, 16);
    if (this.cost?.version === version) return this.cost;
    const perServer = servers.map((server) => ({ server, tokens: costs.get(server)!.tokens, tools: costs.get(server)!.tools }));
    this.cost = { version, baselineTokens: perServer.reduce((n, s) => n + s.tokens, 0), perServer };
    return this.cost;
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

  /** Records one find_tools response; returns the tokens it saved. */
  recordFindTools(sessionId: string, returnedTokens: number, baselineTokens: number, at = Date.now()): number {
    const saved = Math.max(0, baselineTokens - returnedTokens);
    this.findToolsCalls++;
    this.returnedTotal += returnedTokens;
    this.savedTotal += saved;
    this.history.push({ at, returnedTokens, savedTokens: saved });
    if (this.history.length > MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY);
    const s = this.sessions.get(sessionId) ?? { findToolsCalls: 0, returnedTokens: 0, savedTokens: 0 };
    s.findToolsCalls++;
    s.returnedTokens += returnedTokens;
    s.savedTokens += saved;
    this.sessions.set(sessionId, s);
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
  recordRunCode(sessionId: string, innerCalls: number, innerTokens: number, returnedTokens: number, at = Date.now()): void {
    const saved = Math.max(0, innerTokens - returnedTokens);
    this.codeMode.runs++;
    this.codeMode.innerCalls += innerCalls;
    this.codeMode.savedTokens += saved;
    this.addSaving(sessionId, returnedTokens, saved, at);
  }

  private addSaving(sessionId: string, returnedTokens: number, saved: number, at: number): void {
    this.savedTotal += saved;
    this.history.push({ at, returnedTokens, savedTokens: saved });
    if (this.history.length > MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY);
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

  tokenStats(cost: CatalogCost, exposedTokens: number): TokenStats {
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
