/**
 * What one session may see and call, for a signed-in person (`serve --http --team`): the team's
 * policy (core/team/policy.ts) over the Lens's servers and tools. A session without a view (the
 * editor, `serve` for one person) sees everything, as before. What the view hides is unknown to
 * the session — find_tools, tools/list, get_tool_schema, list_servers, call_tool, run_code, the
 * prompts and resources of a hidden server — and unknown-name suggestions come only from what it
 * sees.
 */
import type { Lens, Visibility } from '../app/lens';
import type { CatalogTool } from '../core/catalog';
import type { TeamPolicy } from '../core/team/policy';

export interface ToolView extends Visibility {
  /** Why the person cannot call a tool they see, in words for them; undefined when they can. */
  callRefusal(tool: Pick<CatalogTool, 'server'>): string | undefined;
  /** Whether the person may approve server definitions. */
  isAdmin(): boolean;
}

/**
 * `shared`: servers the team marked as shared. A remote server that signs in (OAuth) holds one
 * account's tokens: a person may call it only when the team says that account is the team's.
 */
export function toolView(
  policy: TeamPolicy,
  lens: Pick<Lens, 'servers'>,
  shared: (server: string) => boolean,
): ToolView {
  return {
    seesServer: (server) => policy.seesServer(server),
    seesTool: (tool) => policy.seesTool(tool.server, tool.originalName),
    isAdmin: () => policy.isAdmin(),
    callRefusal: (tool) => {
      const status = lens.servers().find((s) => s.name === tool.server);
      if (!status?.signIn || shared(tool.server)) return undefined;
      return `Server "${tool.server}" signs in with each person's own account, which this team MCP Lens does not do for you yet: an admin can mark it "shared": true in the team configuration (one team account for everyone), or use it from your own MCP Lens.`;
    },
  };
}

/** The tools a view leaves (all without one). */
export function visibleTools(tools: readonly CatalogTool[], view: ToolView | undefined): CatalogTool[] {
  return view ? tools.filter((t) => view.seesTool(t)) : [...tools];
}
