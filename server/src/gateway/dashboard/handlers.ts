/**
 * The dashboard's requests answered from the Lens facade. The HTTP routes use these; the
 * VS Code panel answers the same requests through the sidecar instead. Params arrive as
 * untrusted JSON, so each handler checks the fields it reads.
 */
import type { ActionResult, DashboardEvents, DashboardHandlers } from '../../../../protocol/webviewProtocol';
import type { Lens } from '../../app/lens';
import { toolCallOutcome } from '../../app/toolCallOutcome';
import type { LensStats } from '../../../../protocol/model';
import { errorMessage } from '../../core/errorMessage';

/** Starts an embedding-model pull, reporting progress; absent where pulling is not possible. */
export type PullModel = (onProgress: (p: DashboardEvents['pullProgress']) => void) => Promise<void>;

/** Thrown for malformed params; the routes answer 400 with its message. */
export class BadParams extends Error {}

/**
 * Approves the definition with `fingerprint` of a server waiting for approval, where the host
 * can (`serve`: the approval store); rejects, saying so, when that is no longer its definition.
 */
export type ApproveServer = (name: string, fingerprint: string) => Promise<void>;

export function lensHandlers(
  lens: Lens,
  stats: () => LensStats,
  pullModel: PullModel | undefined,
  onPullProgress: (p: DashboardEvents['pullProgress']) => void,
  approveServer?: ApproveServer,
): DashboardHandlers {
  return {
    async search(p) {
      const query = str(p, 'query');
      // Without a limit, as many as find_tools gives an agent that names none: the page shows what the agent sees.
      const limit =
        typeof p.limit === 'number' && p.limit > 0
          ? Math.min(Math.floor(p.limit), 50)
          : lens.settings().search.defaultLimit;
      const server = typeof p.server === 'string' && p.server ? p.server : undefined;
      const response = await lens.search({ query, limit, ...(server !== undefined && { server }) });
      // "Try it" needs each hit's schema; fill it in from the catalog where the ranking left it out.
      for (const hit of response.hits) {
        const schema = hit.inputSchema ?? lens.findTool(hit.name)?.inputSchema;
        if (schema) hit.inputSchema = schema;
      }
      return response;
    },
    listServers: async () => lens.servers(),
    async restartServer(p) {
      const name = str(p, 'name');
      return settle(() => lens.restartServer(name));
    },
    async approveServer(p) {
      const name = str(p, 'name');
      const fingerprint = str(p, 'fingerprint');
      if (!approveServer)
        return {
          ok: false,
          error: 'Approving servers is not available from this dashboard; run `mcp-lens tools` in a terminal.',
        };
      return settle(() => approveServer(name, fingerprint));
    },
    async signInServer(p) {
      const name = str(p, 'name');
      return settle(() => lens.signIn(name));
    },
    stats: async () => stats(),
    indexStatus: async () => lens.indexStatus(),
    async callTool(p) {
      const name = str(p, 'name');
      const args = p.arguments;
      if (!args || typeof args !== 'object' || Array.isArray(args))
        throw new BadParams('"arguments" must be a JSON object');
      return toolCallOutcome(lens, name, args, 'dashboard');
    },
    async pullModel() {
      if (!pullModel)
        return {
          ok: false,
          error: 'Pulling the embedding model is not available from this dashboard; run `ollama pull` instead.',
        };
      // The pull takes minutes: answer at once and report through pullProgress events.
      pullModel(onPullProgress).catch((err: unknown) =>
        onPullProgress({ model: '', status: 'failed', done: true, error: errorMessage(err) }),
      );
      return { ok: true };
    },
    usage: async () => lens.usageStats() ?? null,
    learnedSearch: async () => lens.learnedSearch(),
    forgetLearnedSearch: async () => settle(() => lens.forgetLearnedSearch()),
    consent: async () => lens.consent(),
    async revokeConsent(p) {
      const principal = str(p, 'principal');
      const key = str(p, 'key');
      return settle(() => lens.revokeConsent(principal, key));
    },
    shareLearnedSearch: async (p) => settle(() => lens.shareLearnedSearch(str(p, 'tool'))),
  };
}

function str(p: unknown, key: string): string {
  const v = (p as Record<string, unknown> | null)?.[key];
  if (typeof v !== 'string' || v.length === 0 || v.length > 2000)
    throw new BadParams(`"${key}" must be a non-empty string`);
  return v;
}

async function settle(action: () => Promise<void>): Promise<ActionResult> {
  try {
    await action();
    return { ok: true };
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}
