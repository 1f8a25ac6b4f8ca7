/**
 * Which workspace-declared servers the user allowed to start: server name → fingerprint of its
 * definition, in workspaceState, so a changed definition needs a fresh approval. The prompt is
 * modal and names each server with the sidecar's secret-free summary (command or URL).
 */
import * as vscode from 'vscode';
import { plural } from '../../protocol/figureText';
import type { ApprovalNeededParams } from '../../protocol/lspProtocol';

const KEY = 'mcpLens.approvals';

type Pending = ApprovalNeededParams['servers'];

export class Approvals {
  private pending: Pending = [];
  /** Fingerprints refused this session: not asked again until "Approve Servers" is run. */
  private readonly refused = new Set<string>();
  private prompting = false;

  constructor(
    private readonly state: vscode.Memento,
    /** Test-only: approve without asking (the e2e test sets MCP_LENS_E2E_AUTO_APPROVE). */
    private readonly autoApprove: boolean,
  ) {}

  all(): Record<string, string> {
    return { ...this.state.get<Record<string, string>>(KEY, {}) };
  }

  /** Servers waiting for approval, as last reported by the sidecar. */
  get waiting(): Pending {
    return this.pending;
  }

  /** Handles `mcpLens/approvalNeeded`; true when approvals changed and must be sent on. */
  async onNeeded(params: ApprovalNeededParams): Promise<boolean> {
    this.pending = params.servers;
    const ask = params.servers.filter((s) => !this.refused.has(s.fingerprint));
    if (ask.length === 0) return false;
    return this.prompt(ask);
  }

  /** The "Approve Servers" command: asks again, including servers refused earlier. */
  async promptAll(): Promise<boolean> {
    this.refused.clear();
    if (this.pending.length === 0) {
      void vscode.window.showInformationMessage('MCP Lens: no server is waiting for approval.');
      return false;
    }
    return this.prompt(this.pending);
  }

  async clear(): Promise<void> {
    await this.state.update(KEY, undefined);
  }

  private async prompt(servers: Pending): Promise<boolean> {
    if (this.prompting) return false;
    this.prompting = true;
    try {
      const allow = this.autoApprove || (await this.ask(servers));
      if (!allow) {
        for (const s of servers) this.refused.add(s.fingerprint);
        return false;
      }
      const next = this.all();
      for (const s of servers) next[s.name] = s.fingerprint;
      await this.state.update(KEY, next);
      this.pending = this.pending.filter((p) => next[p.name] !== p.fingerprint);
      return true;
    } finally {
      this.prompting = false;
    }
  }

  private async ask(servers: Pending): Promise<boolean> {
    const detail = servers
      .map((s) => `• ${s.name}: ${s.summary}\n   from ${vscode.workspace.asRelativePath(s.sourceFile)}`)
      .join('\n');
    const n = servers.length;
    const pick = await vscode.window.showWarningMessage(
      `MCP Lens wants to start ${plural(n, 'MCP server')} declared in this workspace. Only allow servers you trust: they run on your machine.`,
      { modal: true, detail },
      'Allow',
      "Don't Allow",
    );
    return pick === 'Allow';
  }
}
