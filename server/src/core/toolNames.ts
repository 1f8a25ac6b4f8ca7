/**
 * Client-safe, stable, unique tool names for the gateway. Clients accept only
 * `^[a-zA-Z0-9_-]{1,64}$`, and the same tool name may exist on several servers, so every
 * upstream tool (key `server/name`) gets `<server>_<tool>`, sanitized; names that would be too
 * long are cut and tagged with a hash of the key; collisions are resolved by sorting the keys,
 * so the result depends only on the set of tools, never on their order.
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

/**
 * Assigns every tool its safe name. Keys are `server + "/" + name`. Among keys that want the
 * same name, the first in sorted order keeps it and the others get `_<hash of key>`; so adding
 * a tool renames nothing else unless it collides.
 */
export function assignToolNames(tools: { server: string; name: string }[]): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const t of tools) byKey.set(`${t.server}/${t.name}`, baseToolName(t.server, t.name));
  const keys = [...byKey.keys()].sort();
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
