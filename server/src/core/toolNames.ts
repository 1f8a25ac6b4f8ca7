/**
 * Client-safe, stable, unique tool names for the gateway. Clients accept only
 * `^[a-zA-Z0-9_-]{1,64}$`, and the same tool name may exist on several servers, so every
 * upstream tool (key `server/name`) gets `<server>_<tool>`, sanitized; names that would be too
 * long are cut and tagged with a hash of the key; collisions are resolved by a fixed ranking of
 * the keys, so the result depends only on the set of tools, never on their order.
 *
 * Server names come from the workspace's config and tool names from the upstream, so either may
 * try to take another tool's name (`everything./echo` → `everything_echo`, or upstream `my`
 * listing `github_x` to become `my_github_x`). The ranking makes that fail: a name spelled
 * exactly as its server and tool are (nothing replaced) beats one that needed sanitizing, and
 * between exact spellings the longer server name wins, so a tool name can never reach across
 * into a sibling server's prefix. The loser gets `_<hash of its key>`.
 */

export const SAFE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;
const HASH_LEN = 6;

/** FNV-1a 32-bit, as 6 base-36 characters: short, stable across runs and platforms. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(HASH_LEN, '0').slice(-HASH_LEN);
}

/** True when the part is used as written (no character replaced, trimmed or collapsed). */
function isExact(part: string): boolean {
  return part !== '' && sanitizePart(part) === part;
}

/** Other characters become '_', runs of '_' collapse, '_' at either end goes. */
function sanitizePart(part: string): string {
  const clean = part
    .replace(/[^a-zA-Z0-9_-]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  // A name with no safe character at all still needs a distinct, stable spelling.
  return clean || `x${shortHash(part)}`;
}

function withHash(base: string, hash: string): string {
  return `${base.slice(0, MAX - HASH_LEN - 1)}_${hash}`;
}

/** The preferred name of one tool, before collisions are considered. */
export function baseToolName(server: string, name: string): string {
  const base = `${sanitizePart(server)}_${sanitizePart(name)}`;
  return base.length <= MAX ? base : withHash(base, shortHash(`${server}/${name}`));
}

/** Exact spellings first, then longer server names, then key order. */
function compareClaims(a: Claim, b: Claim): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  if (a.serverLength !== b.serverLength) return b.serverLength - a.serverLength;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

interface Claim {
  key: string;
  exact: boolean;
  serverLength: number;
}

/**
 * Assigns every tool its safe name. Keys are `server + "/" + name`. Among keys that want the
 * same name, the first by `compareClaims` keeps it and the others get `_<hash of key>`; so
 * adding a tool renames nothing else unless it collides, and never takes an exact name.
 */
export function assignToolNames(tools: { server: string; name: string }[]): Map<string, string> {
  const byKey = new Map<string, string>();
  const claims = new Map<string, Claim>();
  for (const t of tools) {
    const key = `${t.server}/${t.name}`;
    const base = baseToolName(t.server, t.name);
    byKey.set(key, base);
    claims.set(key, {
      key,
      exact: isExact(t.server) && isExact(t.name) && base.length <= MAX,
      serverLength: t.server.length,
    });
  }
  const keys = [...claims.values()].sort(compareClaims).map((c) => c.key);
  const result = new Map<string, string>();
  const used = new Set<string>();
  const losers: string[] = [];
  // Every preferred name is claimed first, so a hashed name can never steal one.
  for (const key of keys) {
    const base = byKey.get(key)!;
    if (used.has(base)) losers.push(key);
    else {
      used.add(base);
      result.set(key, base);
    }
  }
  for (const key of losers) {
    const base = byKey.get(key)!;
    let name = withHash(base, shortHash(key));
    for (let salt = 1; used.has(name); salt++) name = withHash(base, shortHash(`${key}#${salt}`));
    used.add(name);
    result.set(key, name);
  }
  return result;
}
