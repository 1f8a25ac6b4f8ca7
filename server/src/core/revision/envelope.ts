/**
 * The per-request envelope of the modern revision (`params._meta`: protocol version, client
 * capabilities, optionally client identity and log level) read and checked once, for every
 * transport. A request is modern when it claims a revision in its envelope (or, over HTTP, in its
 * `MCP-Protocol-Version` header without a session); what fails is answered with the revision's
 * own error, always under the request's id.
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { LEGACY_REVISIONS, META, MODERN_ERROR, MODERN_REVISIONS, isModernRevision } from './revisions';

/** What a modern request says about its client, read from its envelope. */
export interface RequestEnvelope {
  revision: string;
  capabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** Absent: the request asked for no log messages, and gets none. */
  logLevel?: LoggingLevel;
}

/** A refusal in the revision's terms: the JSON-RPC error, and the HTTP status it goes with. */
export interface RevisionError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
  httpStatus: number;
}

const LOG_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The envelope's `_meta`, when the params carry one. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** Whether a message claims a revision in its envelope (the mark of a modern request). */
export function claimsRevision(params: unknown): boolean {
  return metaOf(params)?.[META.protocolVersion] !== undefined;
}

/**
 * The error a modern server answers a revision it does not serve with (-32022): the list is the
 * revisions a request's envelope may name, as server/discover lists them; the legacy ones are
 * spoken too, but in a session opened with `initialize`, which the message says.
 */
export function unsupportedRevision(requested: string): RevisionError {
  return {
    code: MODERN_ERROR.unsupportedVersion,
    message: `Unsupported protocol version "${requested.slice(0, 40)}": MCP Lens serves ${MODERN_REVISIONS.join(', ')} per request, and ${LEGACY_REVISIONS.join(', ')} in a session opened with initialize`,
    data: { supported: [...MODERN_REVISIONS], requested },
    httpStatus: 400,
  };
}

const invalidMeta = (why: string): RevisionError => ({
  code: -32602,
  message: `Invalid params: ${why}`,
  httpStatus: 400,
});

/**
 * Reads a modern request's envelope, or says what is wrong with it: a missing `_meta` or missing
 * required key is -32602; a revision the transport named otherwise (HTTP's MCP-Protocol-Version,
 * `transportRevision`) is -32020; a revision that is not a modern one MCP Lens serves is -32022
 * (a legacy revision is not served statelessly: it opens a session with `initialize`).
 */
export function readEnvelope(params: unknown, transportRevision?: string): RequestEnvelope | RevisionError {
  const meta = metaOf(params);
  if (!meta) return invalidMeta('the request has no _meta (the 2026-07-28 revision needs one on every request)');
  const revision = meta[META.protocolVersion];
  if (typeof revision !== 'string' || revision === '') return invalidMeta(`_meta has no "${META.protocolVersion}"`);
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) return invalidMeta(`_meta has no "${META.clientCapabilities}" object`);
  if (transportRevision !== undefined && transportRevision !== revision)
    return {
      code: MODERN_ERROR.headerMismatch,
      message: `Header mismatch: MCP-Protocol-Version ${JSON.stringify(transportRevision.slice(0, 40))} is not the envelope's ${JSON.stringify(revision.slice(0, 40))}`,
      httpStatus: 400,
    };
  if (!isModernRevision(revision)) return unsupportedRevision(revision);
  const envelope: RequestEnvelope = { revision, capabilities: capabilities as ClientCapabilities };
  const info = meta[META.clientInfo];
  if (info !== undefined) {
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
      return invalidMeta(`"${META.clientInfo}" needs a name and a version`);
    envelope.clientInfo = info as Implementation;
  }
  const level = meta[META.logLevel];
  if (level !== undefined) {
    if (typeof level !== 'string' || !LOG_LEVELS.includes(level))
      return invalidMeta(`"${META.logLevel}" is not a log level (${LOG_LEVELS.join(', ')})`);
    envelope.logLevel = level as LoggingLevel;
  }
  return envelope;
}

export const isRevisionError = (v: RequestEnvelope | RevisionError): v is RevisionError => 'code' in v;
