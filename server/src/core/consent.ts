/**
 * Asking the user before a tool the host never saw runs. In search mode every upstream tool runs
 * as one tool, call_tool (or inside a run_code script), so the host's per-tool confirmation
 * shows call_tool, not the tool that will run: a user who allowed call_tool always would have
 * allowed every destructive tool of every server. MCP Lens asks instead, through an elicitation
 * to the calling session's own client — a form the user answers, never a tool the agent can call
 * — naming the server, the tool and the arguments, before the call leaves MCP Lens.
 *
 * Which tools are asked about is the `mcpLens.consent` setting, read from the tool's own
 * annotations: `destructive` (the default) asks for a tool that says `destructiveHint: true` and
 * is not read-only; `notReadOnly` for every tool that does not say `readOnlyHint: true` (the
 * protocol's defaults: a tool without annotations may be destructive); `off` never. Annotations
 * are the server's word: a server that lies about them is a server the user approved.
 *
 * Pure: building the question, reading the answer, the agent's error texts.
 */
import { capLength, oneLine } from '../../../protocol/untrustedText';

export type ConsentLevel = 'off' | 'destructive' | 'notReadOnly';

/** What the user answered; a declined or cancelled form, or a broken answer, is `deny`. */
export type ConsentAnswer = 'once' | 'always' | 'deny';

/** The form's one field. */
export const CONSENT_FIELD = 'decision';

/** The arguments shown in the question are cut here: enough to judge, short enough for a notification. */
export const CONSENT_ARGS_CHARS = 600;
const NAME_CHARS = 120;

/** The tool as the question shows it. */
export interface ConsentSubject {
  server: string;
  originalName: string;
  title?: string;
  annotations?: Record<string, unknown>;
}

/** Whether a tool with these annotations is asked about at this level. */
export function asksConsent(annotations: Record<string, unknown> | undefined, level: ConsentLevel): boolean {
  if (level === 'off') return false;
  const readOnly = annotations?.readOnlyHint === true;
  if (level === 'notReadOnly') return !readOnly;
  return !readOnly && annotations?.destructiveHint === true;
}

/** A name or title as one line of plain text, cut short. */
function shown(text: string): string {
  return capLength(oneLine(text), NAME_CHARS);
}

/** The arguments as a person reads them: compact JSON, one line, cleaned, cut with a mark. */
export function argumentsText(args: Record<string, unknown>): string {
  let json: string;
  try {
    json = JSON.stringify(args) ?? '{}';
  } catch {
    json = '(arguments that cannot be shown as JSON)';
  }
  return capLength(oneLine(json), CONSENT_ARGS_CHARS);
}

/**
 * The elicitation/create params that ask about one call: the message says who asks (MCP Lens,
 * since the client shows every elicitation under MCP Lens's name), what runs where, and the
 * arguments; the form is one required choice.
 */
export function consentQuestion(tool: ConsentSubject, args: Record<string, unknown>): Record<string, unknown> {
  const name = shown(tool.originalName);
  const title = tool.title !== undefined && tool.title !== tool.originalName ? ` (${shown(tool.title)})` : '';
  const what = tool.annotations?.destructiveHint === true ? 'may change or delete data' : 'is not read-only';
  const message = [
    `MCP Lens: the agent wants to run "${name}"${title} on server "${shown(tool.server)}", which ${what}.`,
    `Arguments: ${argumentsText(args)}`,
  ].join('\n');
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        [CONSENT_FIELD]: {
          type: 'string',
          title: `Run ${name}?`,
          oneOf: [
            { const: 'once', title: 'Allow once' },
            { const: 'always', title: `Always allow ${name} (until its definition changes)` },
            { const: 'deny', title: 'Deny' },
          ],
          default: 'once',
        },
      },
      required: [CONSENT_FIELD],
    },
  };
}

/** What an elicitation result says: only an accepted form with a known choice allows anything. */
export function consentAnswerOf(result: unknown): ConsentAnswer {
  if (!result || typeof result !== 'object') return 'deny';
  const r = result as { action?: unknown; content?: unknown };
  if (r.action !== 'accept' || !r.content || typeof r.content !== 'object') return 'deny';
  const choice = (r.content as Record<string, unknown>)[CONSENT_FIELD];
  return choice === 'once' || choice === 'always' ? choice : 'deny';
}

/** Why a call did not run, for the agent: plain words, no arguments. */
export type ConsentRefusalReason = 'denied' | 'unanswered' | 'cannotAsk';

/**
 * The agent's error for a call that did not run. `cannotAsk`: the client declared no form
 * elicitation, so MCP Lens cannot ask its user; the call is refused rather than run unasked, and
 * the text says how the user can run it (a client that shows MCP Lens's questions, exposure
 * `found` or `all` where the client asks per tool itself, or the setting off). `foundName`: the
 * name the tool is listed by in this session (exposure found), to call it directly.
 */
export function consentRefusal(
  tool: ConsentSubject,
  why: ConsentRefusalReason,
  detail?: string,
  foundName?: string,
): string {
  const where = `"${shown(tool.originalName)}" on server "${shown(tool.server)}"`;
  if (why === 'denied')
    return `The user did not allow the call to ${where}: it did not run. Do not retry it unless the user asks you to; tell them what you wanted to do instead.`;
  if (why === 'unanswered')
    return `The call to ${where} did not run: MCP Lens asks the user before running it and got no answer${detail ? ` (${oneLine(detail)})` : ''}.`;
  const what = tool.annotations?.destructiveHint === true ? 'may change or delete data' : 'is not marked read-only';
  const direct =
    foundName !== undefined
      ? ` It is now listed as this client's own tool "${shown(foundName)}": call it by that name (not through call_tool or run_code) and the client asks the user itself.`
      : ' The user can run it from a client that supports elicitation, or list tools directly (setting mcpLens.exposure "found" or "all") so the client asks for each tool itself, or turn this question off in their own settings (mcpLens.consent "off").';
  return `The call to ${where} did not run: the tool ${what}, MCP Lens asks the user before an agent runs such a tool through call_tool or run_code, and this client cannot show that question (it declared no form elicitation).${direct} Tell the user what you wanted to run.`;
}
