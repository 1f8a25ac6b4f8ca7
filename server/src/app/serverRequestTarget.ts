/**
 * Which downstream session answers what an upstream asks (sampling, elicitation), from what its
 * connection knows of the call behind it (adapters/upstream/inFlightCalls.ts). No guessing: a
 * request goes to a session only when it can be told to that session alone, and is otherwise
 * refused with the reason, at once.
 *
 * - The exact call (streamable HTTP, a server that relates its request to the call): its session.
 * - Else the calls in flight on that connection: all of one session's → that session (related to
 *   its call when it has one there, to the session when it has several); calls of two or more
 *   sessions, or a call no session made (the dashboard's, the terminal's), leave nothing on the
 *   wire to tell them apart (a stdio pipe, an HTTP server's standalone stream) → refused.
 * - Nothing in flight → the only session of the principal the connection runs for, else refused.
 *
 * A stdio connection runs for one principal only (adapters/upstream/principalConnections.ts),
 * so whatever it asks never reaches another principal; two sessions of one principal calling at
 * once is where a refusal is left.
 */
import type { Attribution, UpstreamCaller, UpstreamSource } from '../adapters/upstream/types';
import type { DownstreamSessions } from './downstreamSessions';

export type RequestTarget = { client: UpstreamCaller } | { refused: string };

/** The one session the calls in flight belong to, if they all belong to one (and some session made them). */
export function soleCaller(
  attribution: Attribution,
  sessions: Pick<DownstreamSessions, 'get'>,
): UpstreamCaller | undefined {
  if (attribution.exact) return attribution.exact;
  const { calls } = attribution;
  const first = calls[0];
  if (!first || calls.some((c) => c?.sessionId !== first.sessionId)) return undefined;
  return calls.length === 1 ? first : (sessions.get(first.sessionId) ?? calls.at(-1));
}

export function requestTarget(
  source: UpstreamSource,
  attribution: Attribution,
  sessions: Pick<DownstreamSessions, 'get' | 'of'>,
): RequestTarget {
  const sole = soleCaller(attribution, sessions);
  if (sole) return { client: sole };
  const { calls } = attribution;
  const where = `"${source.server}"`;
  if (calls.length > 0) {
    const made = new Set(calls.flatMap((c) => (c ? [c.sessionId] : [])));
    const outside = calls.length - calls.filter((c) => c).length;
    const parts = [
      ...(made.size ? [`${made.size} session${made.size === 1 ? ' has' : 's have'} calls in flight on ${where}`] : []),
      ...(outside ? [`a call made outside any session (the dashboard or the terminal) is in flight on ${where}`] : []),
    ];
    return { refused: parts.join(', and ') };
  }
  const own = sessions.of(source.principal);
  if (own.length === 1) return { client: own[0]! };
  return {
    refused: own.length
      ? `${own.length} sessions are connected and none has a call to ${where} in flight`
      : `no client that ${where} runs for is connected`,
  };
}
