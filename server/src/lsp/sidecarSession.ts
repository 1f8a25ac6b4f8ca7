/**
 * Everything one sidecar runs, built from the client's `SidecarInitOptions`: the Lens core
 * (config → upstreams → index), the MCP gateway on 127.0.0.1 with a random bearer token, and
 * the embedder used for pulling the model. The LSP connection drives it; it knows no LSP.
 */
import type { GatewayInfo, SidecarInitOptions, UpdateSettingsParams } from '../../../protocol/lspProtocol';
import type { LensStats } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';
import type { PullProgress } from '../adapters/embed/embedder';
import { LensApp } from '../app/lensApp';
import type { Logger } from '../core/logger';
import { GatewayHttpServer } from '../gateway/http';
import { generateToken } from '../gateway/httpGuards';

export class SidecarSession {
  private constructor(
    readonly lens: LensApp,
    private readonly http: GatewayHttpServer,
    private readonly url: string,
    private readonly token: string,
    private readonly log: Logger,
  ) {}

  static async start(init: SidecarInitOptions, log: Logger): Promise<SidecarSession> {
    const workspaceFolder = init.workspaceFolders[0];
    if (!workspaceFolder) log.warn('no workspace folder is open: only servers from user settings can run');
    const lens = await LensApp.start({
      workspaceFolder: workspaceFolder ?? init.storageDir,
      storageDir: init.storageDir,
      settings: init.settings,
      trusted: init.trusted,
      approvals: init.approvals,
      autoApprove: false,
      inputs: init.inputs,
      log,
      insideEditor: true,
      // find_tools answers from the last known catalog at once; servers connect in the
      // background and config file edits apply as they happen.
      waitForServers: false,
      watch: true,
    });
    // A fresh token per sidecar: only the extension (and VS Code through it) may call the gateway.
    const token = generateToken();
    const http = new GatewayHttpServer({ lens, token, port: 0, log });
    let url: string;
    try {
      ({ url } = await http.start());
    } catch (err) {
      await lens.close();
      throw err;
    }
    log.info(`gateway listening on ${url}`);
    return new SidecarSession(lens, http, url, token, log);
  }

  /** Pass `stats` when they were just computed: computing them walks the whole catalog. */
  gatewayInfo(stats: LensStats = this.stats()): GatewayInfo {
    return { url: this.url, token: this.token, catalogVersion: stats.gateway?.catalogVersion ?? '' };
  }

  stats(): LensStats {
    return this.http.stats();
  }

  /** Applies `mcpLens/updateSettings`: trust first, so nothing untrusted starts in between. */
  async update(params: UpdateSettingsParams): Promise<void> {
    await this.lens.reconfigure(params);
  }

  /** Pulls the configured embedding model from Ollama, then reindexes so tools get embedded. */
  async pullModel(settings: McpLensSettings, onProgress: (p: PullProgress) => void): Promise<void> {
    const embedder = new OllamaEmbedder({ host: settings.ollama.host, model: settings.embedding.model, log: this.log });
    await embedder.pull(onProgress);
    await this.lens.reindex();
  }

  async close(): Promise<void> {
    await this.http.close().catch((err: unknown) => this.log.warn(`closing the gateway: ${String(err)}`));
    await this.lens.close();
  }
}
