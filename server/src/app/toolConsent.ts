/**
 * The user's consent before a call runs a tool the host never showed them (core/consent.ts):
 * asked in the one call path (toolCalls.ts) for call_tool and run_code's inner calls alike, and
 * never for a direct call of a tool the host lists (it asked itself) or a call no session made
 * (the dashboard, the palette, the terminal: the person at the machine chose the tool).
 *
 * The question goes to the calling session's own client as a form elicitation, related to the
 * call (over HTTP on that call's own stream), so only that client's user can answer it; the
 * agent has no tool that answers it, sets the level or writes the remembered choices. A client
 * that cannot elicit in form mode runs the call as before: MCP Lens has no one to ask (README).
 * "Always" is remembered per workspace and tool definition (adapters/consentFile.ts); revoking
 * one (the dashboard) asks again next time. One question at a time per session: a script's calls
 * in parallel wait their turn, and a tool allowed always meanwhile runs without a second question.
 */
import type { ConsentView } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogTool } from '../core/catalog';
import { asksConsent, consentAnswerOf, consentQuestion, consentRefusal, type ConsentLevel } from '../core/consent';
import type { Logger } from '../core/logger';
import { errorMessage } from '../core/errorMessage';
import { definitionFingerprint } from '../core/usage/toolFingerprint';
import { MAX_REMEMBERED_CONSENTS, type ConsentFile } from '../adapters/consentFile';
import type { UpstreamCaller } from '../adapters/upstream/types';
import type { CallOptions } from './lens';
import { missingCapability } from './upstreamRequests';

export interface ToolConsentDeps {
  file: ConsentFile;
  settings(): McpLensSettings;
  /** The catalog's tool by key, to tell whether a remembered choice still holds. */
  toolByKey(key: string): CatalogTool | undefined;
  log: Logger;
  /** The remembered choices changed (the dashboard shows them). */
  changed(): void;
}

export class ToolConsent {
  /** Per session, the question being asked: the next waits for it. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ToolConsentDeps) {}

  /** Undefined when the call may run; else why not, for the agent. */
  async check(
    tool: CatalogTool,
    args: Record<string, unknown>,
    ctx: Pick<CallOptions, 'caller' | 'hostConfirms' | 'signal'>,
  ): Promise<string | undefined> {
    const { caller } = ctx;
    if (!caller || ctx.hostConfirms) return undefined;
    if (!asksConsent(tool.annotations, this.level())) return undefined;
    // No form elicitation, no one to ask: the call runs as it always did (README, "Consent").
    if (missingCapability(caller.capabilities(), 'elicitation/create', {})) return undefined;
    const previous = this.turns.get(caller.sessionId) ?? Promise.resolve();
    const turn = previous.then(() => this.ask(tool, args, caller, ctx.signal));
    const settled = turn.catch(() => undefined);
    this.turns.set(caller.sessionId, settled);
    void settled.then(() => {
      if (this.turns.get(caller.sessionId) === settled) this.turns.delete(caller.sessionId);
    });
    return turn;
  }

  /** What the dashboard shows: the remembered choices, newest first, and whether each still holds. */
  view(): ConsentView {
    const tools = this.deps.file
      .read()
      .map((e) => {
        const now = this.deps.toolByKey(e.key);
        return {
          key: e.key,
          server: e.server,
          tool: e.tool,
          allowedAt: e.at,
          current: now !== undefined && definitionFingerprint(now) === e.fingerprint,
        };
      })
      .reverse();
    return { level: this.level(), tools, max: MAX_REMEMBERED_CONSENTS };
  }

  /** Forgets "always" for one tool (by catalog key): its next call asks again. */
  revoke(key: string): void {
    if (!this.deps.file.remove(key)) throw new Error(`no remembered consent for "${key.slice(0, 200)}"`);
    this.deps.log.info(`consent: "always" revoked for ${key}`);
    this.deps.changed();
  }

  private level(): ConsentLevel {
    return this.deps.settings().consent;
  }

  private remembered(tool: CatalogTool): boolean {
    const fingerprint = definitionFingerprint(tool);
    return this.deps.file.read().some((e) => e.key === tool.key && e.fingerprint === fingerprint);
  }

  private async ask(
    tool: CatalogTool,
    args: Record<string, unknown>,
    caller: UpstreamCaller,
    signal: AbortSignal | undefined,
  ): Promise<string | undefined> {
    if (this.remembered(tool)) return undefined;
    if (signal?.aborted) return consentRefusal(tool, 'unanswered', 'the call was cancelled');
    let answer;
    try {
      const result = await caller.request(
        'elicitation/create',
        consentQuestion(tool, args),
        signal ?? new AbortController().signal,
      );
      answer = consentAnswerOf(result);
    } catch (err) {
      // Fail closed: a question that could not be asked or answered allows nothing.
      this.deps.log.info(`consent: asking about ${tool.key} failed: ${errorMessage(err)}`);
      return consentRefusal(tool, 'unanswered', errorMessage(err));
    }
    this.deps.log.info(`consent: ${tool.key}: ${answer}`);
    if (answer === 'deny') return consentRefusal(tool, 'denied');
    if (answer === 'always') this.remember(tool);
    return undefined;
  }

  private remember(tool: CatalogTool): void {
    try {
      this.deps.file.add({
        key: tool.key,
        server: tool.server,
        tool: tool.originalName,
        fingerprint: definitionFingerprint(tool),
        at: Date.now(),
      });
      this.deps.changed();
    } catch (err) {
      // This call was allowed; the choice is not kept, so the next one asks again.
      this.deps.log.warn(`consent: "always" for ${tool.key} not saved: ${errorMessage(err)}`);
    }
  }
}
