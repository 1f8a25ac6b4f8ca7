/**
 * `mcpLens.include` / `mcpLens.exclude`: glob patterns over `server/tool`. This is a security
 * boundary (call_tool checks it too), so every ambiguity is settled toward hiding a tool:
 *  - Exclude wins over include; an empty include means every tool.
 *  - A pattern's first `/`-split that fits decides: `github/*` is every tool of server
 *    `github`, `*​/delete_*` every `delete_` tool; server and tool names may themselves
 *    hold `/` (`microsoft/playwright/*`, tool `repos/get`), and `*` and `?` match `/` in names.
 *  - A pattern without `/` names servers: `github` means all of github's tools.
 *  - A leading `!` negates the whole pattern (`!github/*` = every tool not on github).
 *  - Include is case-sensitive; exclude ignores case, so `Delete_Repo` cannot slip past
 *    `*​/delete_*`.
 *  - A pattern picomatch cannot compile matches nothing in include and everything in exclude.
 *  - Names holding a NUL character never pass (we use it internally to stand for `/`).
 *  - A server a folder of a multi-root workspace declares (`api/github`, core/config/folders.ts)
 *    is also matched by its name in that folder (`github`): a pattern written for the folder's
 *    server (`github/delete_*`) hides it there too, and one with the folder (`api/github/*`)
 *    only that folder's. Exclude hides it when either name matches, include keeps it when either does.
 *  - Names are compared as a person reads them: include sees the NFKC name without invisible
 *    characters (`normalizeName`); exclude also sees its look-alike skeleton (TR39), so
 *    `delete\u200b_repo`, `ｄｅｌｅｔｅ_repo` and `dеlete_repo` (Cyrillic е) are all `*​/delete_*`.
 */
import picomatch from 'picomatch/posix';
import { normalizeName } from '../../../../protocol/untrustedText';
import { nameSkeleton, patternSkeleton } from '../nameSkeleton';

/** One include/exclude pair, as settings give it. */
export interface ToolFilterSpec {
  include: readonly string[];
  exclude: readonly string[];
}

/** `localServer`: the server's name within its folder, when a multi-root folder declared it. */
export type ToolFilter = (server: string, tool: string, localServer?: string) => boolean;
type PairMatcher = (server: string, tool: string) => boolean;

/** Stands for `/` inside names, so a single `*` may span it. */
const SLASH = '\u0000';
const encode = (s: string) => s.split('/').join(SLASH);

function partMatcher(part: string, nocase: boolean): (s: string) => boolean {
  const m = picomatch(encode(part), { dot: true, nocase, windows: false });
  return (s) => m(encode(s));
}

function compile(raw: string, nocase: boolean, onError: boolean): PairMatcher {
  const negated = raw.startsWith('!') && !raw.startsWith('!(');
  const pattern = negated ? raw.slice(1) : raw;
  let matcher: PairMatcher;
  try {
    const splits: [(s: string) => boolean, (s: string) => boolean][] = [];
    for (let i = pattern.indexOf('/'); i >= 0; i = pattern.indexOf('/', i + 1)) {
      splits.push([partMatcher(pattern.slice(0, i), nocase), partMatcher(pattern.slice(i + 1), nocase)]);
    }
    if (splits.length === 0) {
      const serverOnly = partMatcher(pattern, nocase);
      matcher = (server) => serverOnly(server);
    } else {
      matcher = (server, tool) => splits.some(([ms, mt]) => ms(server) && mt(tool));
    }
  } catch {
    return () => onError;
  }
  return negated ? (server, tool) => !matcher(server, tool) : matcher;
}

function patterns(list: readonly string[]): string[] {
  return list.map((p) => (typeof p === 'string' ? p.trim() : '')).filter((p) => p !== '');
}

/** Builds the `server/tool` filter; true means the tool is exposed and callable. */
export function createToolFilter(include: readonly string[], exclude: readonly string[]): ToolFilter {
  const inc = patterns(include).map((p) => compile(normalizeName(p), false, false));
  // Each exclude pattern meets the name in three spellings: as written, normalized, and folded
  // to its look-alike skeleton (the pattern folded the same way).
  const exc = patterns(exclude).map((p) => ({
    raw: compile(p, true, true),
    normal: compile(normalizeName(p), true, true),
    skeleton: compile(patternSkeleton(p), true, true),
  }));
  return (server, tool, localServer) => {
    const servers = localServer === undefined || localServer === server ? [server] : [server, localServer];
    if (servers.some((s) => s.includes(SLASH)) || tool.includes(SLASH)) return false;
    if (exc.length === 0 && inc.length === 0) return true;
    const nt = normalizeName(tool);
    const kt = nameSkeleton(tool);
    for (const s of servers) {
      const [ns, ks] = [normalizeName(s), nameSkeleton(s)];
      if (exc.some((m) => m.raw(s, tool) || m.normal(ns, nt) || m.skeleton(ks, kt))) return false;
    }
    return inc.length === 0 || servers.some((s) => inc.some((m) => m(normalizeName(s), nt)));
  };
}

/**
 * Several filters at once: a tool is exposed only when every one lets it through (what stays in
 * force while a wider filter waits for the user's approval: core/config/filterWidening.ts).
 */
export function createToolFilters(specs: readonly ToolFilterSpec[]): ToolFilter {
  const filters = specs.map((s) => createToolFilter(s.include, s.exclude));
  return (server, tool, localServer) => filters.every((f) => f(server, tool, localServer));
}
