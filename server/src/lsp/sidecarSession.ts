/**
 * Everything one sidecar runs, built from the client's `SidecarInitOptions`: the Lens core
 * (config → upstreams → index), the MCP gateway on 127.0.0.1 with a random bearer token, and
 * the embedder used for pulling the model. The LSP connection drives it; it knows no LSP.
 */
import { basename } from 'node:path';
import type { GatewayInfo, SidecarInitOptions, UpdateSettingsParams } from '../../../protocol/lspProtocol';
import type { LensStats } from '../../../protocol/model';
import { TOOL_FILTER_APPROVAL_NAME, type McpLensSettings } from '../../../protocol/settings';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';
import type { PullProgress } from '../adapters/embed/embedder';
import type { Lens } from '../app/lens';
import { LensApp } from '../app/lensApp';
import type { LensControl } from '../app/lensControl';
import type { Logger } from '../core/logger';
import { WORKSPACE_PRINCIPAL } from '../core/principal';
import { GatewayHttpServer } from '../gateway/http';
import { generateToken } from '../gateway/httpGuards';
import type { OAuthEnvironment } from '../adapters/upstream/auth/types';

/** A hold on reloads ends by itself after this long. */
const HOLD_LIMIT_MS = 10_000;

export class SidecarSession {
  private holding = false;
  private holdTimer: NodeJS.Timeout | undefined;
  private heldUpdate: UpdateSettingsParams | undefined;

  private constructor(
    readonly lens: Lens & LensControl,
    private readonly http: GatewayHttpServer,
    private readonly url: string,
    private readonly token: string,
    private readonly log: Logger,
  ) {}

  static async start(init: SidecarInitOptions, log: Logger, oauth?: OAuthEnvironment): Promise<SidecarSession> {
    // Every folder of a multi-root workspace is read as its own (core/config/folders.ts).
    const folders = init.folders?.length
      ? init.folders
      : init.workspaceFolders.map((path) => ({ path, name: basename(path) }));
    const workspaceFolder = folders[0]?.path;
    if (!workspaceFolder) log.warn('no workspace folder is open: only servers from user settings can run');
    else if (folders.length > 1)
      log.info(
        `multi-root workspace: reading the MCP configuration of ${folders.length} folders; their servers are named <folder>/<server>`,
      );
    const lens = await LensApp.start({
      workspaceFolder: workspaceFolder ?? init.storageDir,
      ...(folders.length > 1 && { workspaceFolders: folders }),
      storageDir: init.storageDir,
      settings: init.settings,
      trusted: init.trusted,
      approvals: init.approvals,
      autoApprove: false,
      // Which filter patterns are the user's own, and the workspace's filter accepted before (kept by the extension).
      ...(init.toolFilterLevels && { toolFilterLevels: init.toolFilterLevels }),
      ...(init.approvals[TOOL_FILTER_APPROVAL_NAME] !== undefined && {
        acceptedToolFilter: init.approvals[TOOL_FILTER_APPROVAL_NAME],
      }),
      inputs: init.inputs,
      log,
      insideEditor: true,
      // find_tools answers from the last known catalog at once; servers connect in the
      // background and config file edits apply as they happen.
      waitForServers: false,
      watch: true,
      // Remote servers that need an account sign in through the extension (editorOAuth.ts).
      ...(oauth && { pool: { oauth } }),
    });
    // The token only the extension (and VS Code through it) knows; the extension keeps it and
    // the port across sidecar restarts, so the server definition VS Code holds stays valid.
    const token = init.gateway?.token && init.gateway.token.length >= 32 ? init.gateway.token : generateToken();
    let started: { http: GatewayHttpServer; url: string };
    try {
      started = await listen(lens, token, init.gateway?.port ?? 0, log);
    } catch (err) {
      await lens.close();
      throw err;
    }
    log.info(`gateway listening on ${started.url}`);
    return new SidecarSession(lens, started.http, started.url, token, log);
  }

  /**
   * `mcpLens/holdReloads`: while held, config file changes and settings updates wait; the
   * release applies what arrived meanwhile in one reload. A hold ends by itself after
   * HOLD_LIMIT_MS so a client that never releases cannot freeze the configuration.
   */
  async holdReloads(hold: boolean): Promise<void> {
    clearTimeout(this.holdTimer);
    if (hold) {
      if (!this.holding) this.lens.pauseReloads();
      this.holding = true;
      this.holdTimer = setTimeout(() => void this.holdReloads(false).catch(() => undefined), HOLD_LIMIT_MS);
      this.holdTimer.unref();
      return;
    }
    if (!this.holding) return;
    this.holding = false;
    const changed = this.lens.resumeReloads();
    const update = this.heldUpdate;
    this.heldUpdate = undefined;
    // A settings update reloads the config files too: one reload either way.
    if (update) await this.lens.reconfigure(update);
    else if (changed) await this.lens.reload();
  }

  /** Pass `stats` when they were just computed: computing them walks the whole catalog. */
  gatewayInfo(stats: LensStats = this.stats()): GatewayInfo {
    return { url: this.url, token: this.token, catalogVersion: stats.gateway?.catalogVersion ?? '' };
  }

  stats(): LensStats {
    return this.http.stats();
  }

  /** Applies `mcpLens/updateSettings` (after a hold, when one is on). */
  async update(params: UpdateSettingsParams): Promise<void> {
    if (this.holding) {
      this.heldUpdate = params;
      return;
    }
    await this.lens.reconfigure(params);
  }

  /** Pulls the configured embedding model from Ollama, then reindexes so tools get embedded. */
  async pullModel(settings: McpLensSettings, onProgress: (p: PullProgress) => void): Promise<void> {
    const embedder = new OllamaEmbedder({ host: settings.ollama.host, model: settings.embedding.model, log: this.log });
    await embedder.pull(onProgress);
    await this.lens.reindex();
  }

  async close(): Promise<void> {
    clearTimeout(this.holdTimer);
    await this.http.close().catch((err: unknown) => this.log.warn(`closing the gateway: ${String(err)}`));
    await this.lens.close();
  }
}

/** Listens on `port` when it is free (the previous sidecar's), else on any free port. */
async function listen(
  lens: Lens,
  token: string,
  port: number,
  log: Logger,
): Promise<{ http: GatewayHttpServer; url: string }> {
  // Only the extension and VS Code know this token (kept in memory, never written): every
  // session is the editor's, acting for the workspace (core/principal.ts).
  const http = new GatewayHttpServer({ lens, token, port, log, principalFor: () => WORKSPACE_PRINCIPAL });
  try {
    return { http, url: (await http.start()).url };
  } catch (err) {
    if (port === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    await http.close().catch(() => undefined);
    log.info(`gateway: port ${port} is taken; listening on another`);
    return listen(lens, token, 0, log);
  }
}
