/**
 * Where the state database is and how many connections a replica opens to it, from the command
 * line and the environment. Apart from the database code so that reading them loads no driver.
 */

/** Connections one replica holds for queries at most (plus one listener); MCP_LENS_DATABASE_POOL changes it. */
export const DEFAULT_POOL_SIZE = 8;

/** The state database's URL: `--state`, else MCP_LENS_DATABASE_URL; undefined: no shared state. */
export function stateUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = option?.trim() || env.MCP_LENS_DATABASE_URL?.trim();
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new Error('the state database must be a postgres:// or postgresql:// URL (--state or MCP_LENS_DATABASE_URL)');
  return url;
}

/** MCP_LENS_DATABASE_POOL: connections per replica for queries (1 to 100). */
export function poolSize(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.MCP_LENS_DATABASE_POOL?.trim();
  if (!raw) return DEFAULT_POOL_SIZE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new Error(`MCP_LENS_DATABASE_POOL must be a whole number from 1 to 100, not "${raw.slice(0, 20)}"`);
  return n;
}
