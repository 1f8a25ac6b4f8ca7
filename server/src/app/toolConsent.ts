/**
 * The user's consent before a call runs a tool the host never showed them (core/consent.ts):
 * asked in the one call path (toolCalls.ts) for call_tool and run_code's inner calls alike, and
 * never for a direct call of a tool the host lists (it asks by its own per-tool rules, with the
 * tool's real name and annotations) or a call no session made (the dashboard, the palette, the
 * terminal: the person at the machine chose the tool).
 *
 * The question goes to the calling session's own client as a form elicitation, related to the
 * call (over HTTP on that call's own stream), so only that client's user can answer it; the
 * agent has no tool that answers it, sets the level or writes the remembered choices. A client
 * that cannot elicit in form mode gets a refusal naming the tool and what the user can do: a
 * destructive call never runs unasked. "Always" is remembered per principal (core/principal.ts)
 * and tool definition: the workspace's user and a signed-in person in the state folder
 * (adapters/consentFile.ts), a `serve --http` client session (a principal that ends with it) in
 * memory; revoking one (the dashboard) asks again next time. One question at a time per
 * session: a script's calls in parallel wait their turn, and a tool allowed always meanwhile runs
 * without a second question.
 */
import type { ConsentView, RememberedConsentView } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogTool } from '../core/catalog';
import { asksConsent, consentAnswerOf, consentQuestion, consentRefusal, type ConsentLevel } from '../core/consent';
import type { Logger } from '../core/logger';
import type { Principal } from '../core/principal';
import { errorMessage } from '../core/errorMessage';
import { definitionFingerprint } from '../core/usage/toolFingerprint';
import { MAX_REMEMBERED_CONSENTS, type ConsentFile, type RememberedConsent } from '../adapters/consentFile';
import type { UpstreamCaller } from '../adapters/upstream/types';
import type { CallOptions } from './lens';
import { missingCapability } from './upstreamRequests';

/** Client sessions whose "always" is kept in memory at once; the oldest session's go first. */
const MAX_SESSION_PRINCIPALS = 256;

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
  /** "Always" of principals that end with their session, by principal id (insertion order: oldest first). */
  private readonly inMemory = new Map<string, { label: string; entries: RememberedConsent[] }>();

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
    if (this.remembered(tool, caller.principal)) return undefined;
    if (missingCapability(caller.capabilities(), 'elicitation/create', {})) {
      this.deps.log.info(`consent: ${tool.key} refused: the client cannot be asked (no form elicitation)`);
      const foundName = this.deps.settings().exposure === 'found' ? tool.name : undefined;
      return consentRefusal(tool, 'cannotAsk', undefined, foundName);
    }
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
    const shown = (e: RememberedConsent, label: string): RememberedConsentView => {
      const now = this.deps.toolByKey(e.key);
      return {
        key: e.key,
        principal: e.principal,
        principalLabel: label,
        server: e.server,
        tool: e.tool,
        allowedAt: e.at,
        current: now !== undefined && definitionFingerprint(now) === e.fingerprint,
      };
    };
    const tools = [
      ...this.deps.file.read().map((e) => shown(e, labelOf(e.principal))),
      ...[...this.inMemory.values()].flatMap((p) => p.entries.map((e) => shown(e, p.label))),
    ].sort((a, b) => b.allowedAt - a.allowedAt);
    return { level: this.level(), tools, max: MAX_REMEMBERED_CONSENTS };
  }

  /** Forgets `principal`'s "always" for one tool (by catalog key): its next call asks again. */
  revoke(principal: string, key: string): void {
    const memory = this.inMemory.get(principal);
    const before = memory?.entries.length ?? 0;
    if (memory) memory.entries = memory.entries.filter((e) => e.key !== key);
    const removed = (memory?.entries.length ?? 0) < before || this.deps.file.remove(principal, key);
    if (!removed) throw new Error(`No tool "${key.slice(0, 200)}" is allowed always for ${labelOf(principal)}.`);
    this.deps.log.info(`consent: "always" revoked for ${key} (${labelOf(principal)})`);
    this.deps.changed();
  }

  private level(): ConsentLevel {
    return this.deps.settings().consent;
  }

  private entriesOf(principal: Principal): readonly RememberedConsent[] {
    if (principal.kind === 'client') return this.inMemory.get(principal.id)?.entries ?? [];
    return this.deps.file.read().filter((e) => e.principal === principal.id);
  }

  private remembered(tool: CatalogTool, principal: Principal): boolean {
    const fingerprint = definitionFingerprint(tool);
    return this.entriesOf(principal).some((e) => e.key === tool.key && e.fingerprint === fingerprint);
  }

  private async ask(
    tool: CatalogTool,
    args: Record<string, unknown>,
    caller: UpstreamCaller,
    signal: AbortSignal | undefined,
  ): Promise<string | undefined> {
    if (this.remembered(tool, caller.principal)) return undefined;
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
    this.deps.log.info(`consent: ${tool.key}: ${answer} (${caller.principal.label})`);
    if (answer === 'deny') return consentRefusal(tool, 'denied');
    if (answer === 'always') this.remember(tool, caller.principal);
    return undefined;
  }

  private remember(tool: CatalogTool, principal: Principal): void {
    const entry: RememberedConsent = {
      principal: principal.id,
      key: tool.key,
      server: tool.server,
      tool: tool.originalName,
      fingerprint: definitionFingerprint(tool),
      at: Date.now(),
    };
    if (principal.kind === 'client') {
      const held = this.inMemory.get(principal.id) ?? { label: principal.label, entries: [] };
      held.entries = [...held.entries.filter((e) => e.key !== tool.key), entry].slice(-MAX_REMEMBERED_CONSENTS);
      this.inMemory.delete(principal.id);
      this.inMemory.set(principal.id, held);
      for (const oldest of this.inMemory.keys()) {
        if (this.inMemory.size <= MAX_SESSION_PRINCIPALS) break;
        this.inMemory.delete(oldest);
      }
      this.deps.changed();
      return;
    }
    try {
      this.deps.file.add(entry);
      this.deps.changed();
    } catch (err) {
      // This call was allowed; the choice is not kept, so the next one asks again.
      this.deps.log.warn(`consent: "always" for ${tool.key} not saved: ${errorMessage(err)}`);
    }
  }
}

/** A stored principal id as the dashboard names it (ids are never secrets). */
function labelOf(principalId: string): string {
  return principalId === 'workspace' ? 'this workspace' : principalId;
}
