/**
 * The audit trail's contract: one record per tool call through MCP Lens, kept by a sink (a JSON
 * Lines file for one person, PostgreSQL for a team). Argument values are kept only when the
 * team's configuration asks for them; otherwise a fingerprint stands for them.
 */

/** One tool call through MCP Lens, as the audit keeps it. */
export interface AuditRecord {
  /** When the call started, ISO 8601 (UTC). */
  at: string;
  /** The principal's id (a person: the token's issuer and subject). */
  principal: string;
  /** The person as the token names them (email or name claim), when it does. */
  person?: string;
  /** How the client called: `call_tool`, `run_code`, or `tools/call` (a tool exposed directly). */
  via: string;
  server: string;
  tool: string;
  /** The first 16 hex digits of the sha256 of the arguments' canonical JSON (sorted keys). */
  argsFingerprint: string;
  /** The argument values, only when the team's configuration asks for them. */
  args?: unknown;
  outcome: 'ok' | 'error' | 'refused';
  /** Why it failed or was refused, in the words the client got (already cleaned). */
  error?: string;
  durationMs: number;
  /** o200k tokens of the result the client got. */
  resultTokens: number;
  /** The replica that served the call (MCP_LENS_REPLICA_ID, or host:pid). */
  replica: string;
}

/** What `mcp-lens audit` and the dashboard ask for; every field narrows, none is required. */
export interface AuditQuery {
  principal?: string;
  server?: string;
  tool?: string;
  /** ISO 8601 bounds, inclusive. */
  since?: string;
  until?: string;
  /** Newest first, at most this many (default 100, at most 10,000). */
  limit?: number;
}

export interface AuditSink {
  /** Resolves once the record is durable (fsync'd, or committed). */
  append(record: AuditRecord): Promise<void>;
  query(query: AuditQuery): Promise<AuditRecord[]>;
  close(): Promise<void>;
}
