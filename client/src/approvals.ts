/**
 * Which workspace-declared servers the user allowed to start: server name → fingerprint of its
 * definition, in workspaceState, so a changed definition needs a fresh approval. The prompt is
 * modal and names each server with the sidecar's secret-free summary (command or URL).
 * Beside them, under TOOL_FILTER_APPROVAL_NAME, the workspace's include/exclude the sidecar
 * accepted (or the user approved when a change would show more tools), handed back at every
 * sidecar start so a restart never accepts what was waiting.
 */
import * as vscode from 'vscode';
import { plural } from '../../protocol/figureText';
import type { ApprovalNeededParams } from '../../protocol/lspProtocol';
import { TOOL_FILTER_APPROVAL_NAME } from '../../protocol/settings';
import { escapeForDisplay } from '../../protocol/untrustedText';

const KEY = 'mcpLens.approvals';

type Pending = ApprovalNeededParams['servers'];

export class Approvals implements vscode.Disposable {
  private pending: Pending = [];
  /** Fingerprints refused this session: not asked again until the user asks to approve. */
  private readonly refused = new Set<string>();
  private promptOpen = false;
  private readonly changes = new vscode.EventEmitter<void>();
  /** Fires when the servers waiting for approval change or a prompt opens or closes. */
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly state: vscode.Memento,
    /** Test-only: servers approved without asking (the e2e test sets MCP_LENS_E2E_AUTO_APPROVE). */
    private readonly autoApprove: (name: string) => boolean,
  ) {}

  all(): Record<string, string> {
    return { ...this.state.get<Record<string, string>>(KEY, {}) };
  }

  /** Servers waiting for approval, as last reported by the sidecar. */
  get waiting(): Pending {
    return this.pending;
  }

  /** Whether the approval prompt is open now. */
  get prompting(): boolean {
    return this.promptOpen;
  }

  /** Handles `mcpLens/approvalNeeded`; true when approvals changed and must be sent on. */
  async onNeeded(params: ApprovalNeededParams): Promise<boolean> {
    this.pending = params.servers;
    this.changes.fire();
    const ask = params.servers.filter((s) => !this.refused.has(s.fingerprint));
    if (ask.length === 0) return false;
    return this.prompt(ask);
  }

  /**
   * "Approve Servers" (the command, the status bar item, List Servers, the dashboard): asks
   * again, refused servers included; `names` narrows it to some of them, and `fingerprint` (the
   * dashboard's) to that exact definition of them. What is approved is always the fingerprint of
   * what the prompt showed.
   */
  async promptAll(names?: readonly string[], fingerprint?: string): Promise<boolean> {
    const servers = this.pending.filter(
      (s) => (!names || names.includes(s.name)) && (fingerprint === undefined || s.fingerprint === fingerprint),
    );
    for (const s of servers) this.refused.delete(s.fingerprint);
    if (servers.length === 0) {
      void vscode.window.showInformationMessage(
        names
          ? `MCP Lens: ${names.join(', ')} is not waiting for approval.`
          : 'MCP Lens: no server is waiting for approval.',
      );
      return false;
    }
    return this.prompt(servers);
  }

  dispose(): void {
    this.changes.dispose();
  }

  /** Handles `mcpLens/acceptedToolFilter`: keeps what the sidecar accepted (no prompt: it shows no more than before). */
  async recordAcceptedToolFilter(value: string): Promise<void> {
    const all = this.all();
    if (all[TOOL_FILTER_APPROVAL_NAME] === value) return;
    await this.state.update(KEY, { ...all, [TOOL_FILTER_APPROVAL_NAME]: value });
  }

  private async prompt(servers: Pending): Promise<boolean> {
    if (this.promptOpen) return false;
    this.promptOpen = true;
    this.changes.fire();
    try {
      const allow = servers.every((s) => this.autoApprove(s.name)) || (await this.ask(servers));
      if (!allow) {
        for (const s of servers) this.refused.add(s.fingerprint);
        void vscode.window
          .showInformationMessage(
            `MCP Lens: ${servers.map((s) => (s.kind === 'tool-filter' ? "the workspace's tool filter change" : escapeForDisplay(s.name))).join(', ')} not ${servers.every((s) => s.kind === 'tool-filter') ? 'applied' : 'started'}. Approve ${servers.length === 1 ? 'it' : 'them'} later from the status bar, "MCP Lens: List Servers" or the dashboard.`,
            'Approve Now',
          )
          .then((pick) => pick && vscode.commands.executeCommand('mcpLens.approveServers'));
        return false;
      }
      const next = this.all();
      for (const s of servers) next[s.name] = s.fingerprint;
      await this.state.update(KEY, next);
      this.pending = this.pending.filter((p) => next[p.name] !== p.fingerprint);
      return true;
    } finally {
      this.promptOpen = false;
      this.changes.fire();
    }
  }

  private async ask(servers: Pending): Promise<boolean> {
    const detail = servers
      // Every field (or every change of a tool filter) on its own line, escaped by the sidecar (core/config/describe.ts approvalLines).
      .map((s) =>
        [
          s.kind === 'tool-filter'
            ? `tool filter (mcpLens.include / mcpLens.exclude) in ${vscode.workspace.asRelativePath(s.sourceFile)}:`
            : `from ${vscode.workspace.asRelativePath(s.sourceFile)}:`,
          ...(s.details ?? [s.summary]).map((l) => `   ${l}`),
        ].join('\n'),
      )
      .join('\n\n');
    const n = servers.filter((s) => s.kind !== 'tool-filter').length;
    const filter = servers.some((s) => s.kind === 'tool-filter');
    const message = [
      n > 0
        ? `MCP Lens wants to start ${plural(n, 'MCP server')} declared in this workspace. Only allow servers you trust: they run on your machine.`
        : '',
      filter
        ? "This workspace's settings changed so that tools hidden until now could be found and called. Allow only a change you made yourself: an agent's file tools can write workspace settings."
        : '',
    ]
      .filter(Boolean)
      .join(' ');
    const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, 'Allow', "Don't Allow");
    return pick === 'Allow';
  }
}
