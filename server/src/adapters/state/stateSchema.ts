/**
 * The state database's schema, versioned: each migration runs once, in order, inside one
 * transaction, under an advisory lock so replicas starting together migrate once between them.
 * `mcp_lens_schema` records the versions applied; a database newer than this build (a version
 * it does not know) is refused rather than written to. Migrations are appended, never edited.
 */
import type pg from 'pg';

/** An arbitrary 64-bit key for pg_advisory_xact_lock: "MCPLENS1". */
const MIGRATION_LOCK = '5494956094010381105';

export const MIGRATIONS: readonly string[] = [
  // 1: audit, approvals, shared search lessons, sealed OAuth records.
  `CREATE TABLE mcp_lens_audit (
     id bigserial PRIMARY KEY,
     at timestamptz NOT NULL,
     principal text NOT NULL,
     person text,
     via text NOT NULL,
     server text NOT NULL,
     tool text NOT NULL,
     args_fingerprint text NOT NULL,
     args jsonb,
     outcome text NOT NULL CHECK (outcome IN ('ok', 'error', 'refused')),
     error text,
     duration_ms double precision NOT NULL,
     result_tokens integer NOT NULL,
     replica text NOT NULL
   );
   CREATE INDEX mcp_lens_audit_at ON mcp_lens_audit (at DESC, id DESC);
   CREATE INDEX mcp_lens_audit_principal ON mcp_lens_audit (principal, at DESC);
   CREATE INDEX mcp_lens_audit_tool ON mcp_lens_audit (server, tool, at DESC);
   CREATE TABLE mcp_lens_approvals (
     workspace text NOT NULL,
     server text NOT NULL,
     fingerprint text NOT NULL,
     approved_at timestamptz NOT NULL DEFAULT now(),
     replica text NOT NULL,
     PRIMARY KEY (workspace, server)
   );
   CREATE TABLE mcp_lens_lessons (
     id bigserial PRIMARY KEY,
     workspace text NOT NULL,
     terms text[] NOT NULL,
     words text[] NOT NULL,
     teacher text NOT NULL,
     tool_key text NOT NULL,
     server text NOT NULL,
     fingerprint text NOT NULL,
     delta double precision NOT NULL,
     taught_at bigint NOT NULL,
     replica text NOT NULL
   );
   CREATE INDEX mcp_lens_lessons_workspace ON mcp_lens_lessons (workspace, id);
   CREATE TABLE mcp_lens_oauth (
     key text PRIMARY KEY,
     sealed bytea NOT NULL,
     key_id text NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   );`,
];

/** Brings the schema to MIGRATIONS.length; returns the versions it applied. */
export async function migrateState(client: pg.ClientBase): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS mcp_lens_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const rows = (await client.query<{ v: number | null }>('SELECT max(version) AS v FROM mcp_lens_schema')).rows;
    const at = rows[0]?.v ?? 0;
    if (at > MIGRATIONS.length)
      throw new Error(
        `its schema is version ${at}, newer than this MCP Lens knows (${MIGRATIONS.length}): upgrade MCP Lens`,
      );
    const applied: number[] = [];
    for (let v = at + 1; v <= MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v - 1]!);
      await client.query('INSERT INTO mcp_lens_schema (version) VALUES ($1)', [v]);
      applied.push(v);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
