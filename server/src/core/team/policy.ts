/**
 * Who sees what, by the team's configuration (teamConfig.ts): a person sees a server when one of
 * their groups is among its `groups`, and a tool of it when they are also in the groups of every
 * tool rule that matches its name. A server the configuration does not name is seen by no one:
 * adding a server to the workspace never shows it to the team before someone decides who sees it.
 * What a person does not see does not exist for them (find_tools, tools/list, call_tool,
 * get_tool_schema, run_code): "unknown", never "forbidden", so nothing hints at what is hidden.
 */
import { EVERYONE, type TeamConfig } from './teamConfig';

export interface TeamPolicy {
  seesServer(server: string): boolean;
  /** `originalName`: the tool's name on its server (rules name upstream tools, not MCP Lens's prefixed names). */
  seesTool(server: string, originalName: string): boolean;
  isAdmin(): boolean;
}

const inAny = (groups: readonly string[], allowed: readonly string[]) =>
  allowed.includes(EVERYONE) || allowed.some((g) => groups.includes(g));

/** The policy as it applies to a person in `groups` (read from their token at each request). */
export function policyFor(config: Pick<TeamConfig, 'servers' | 'admins'>, groups: () => readonly string[]): TeamPolicy {
  return {
    seesServer: (server) => {
      const rule = config.servers[server];
      return rule !== undefined && inAny(groups(), rule.groups);
    },
    seesTool: (server, originalName) => {
      const rule = config.servers[server];
      if (!rule) return false;
      const mine = groups();
      if (!inAny(mine, rule.groups)) return false;
      return rule.tools.every((t) => !globMatches(t.pattern, originalName) || inAny(mine, t.groups));
    },
    isAdmin: () => config.admins.some((g) => g !== EVERYONE && groups().includes(g)),
  };
}

/** `*` matches any run of characters (none included); everything else is literal. */
export function globMatches(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!name.startsWith(first) || name.length < first.length + last.length || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = name.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}
