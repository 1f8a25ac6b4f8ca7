/**
 * Approved server fingerprints in the state database, per workspace (its absolute folder, as
 * the file store keys them): every replica serving that workspace reads them at start and
 * hears when another approves one (a NOTIFY), so a server approved on one replica's dashboard
 * starts on all of them and outlives the replica that approved it. `current()` answers from
 * what was last read (the reconciler reads approvals synchronously); `save` commits before it
 * resolves.
 */
import { resolve } from 'node:path';
import type { ApprovalMap } from '../config/approvalStore';
import type { StateDatabase } from './stateDatabase';

export class PgApprovals {
  private map: ApprovalMap = {};
  private readonly workspace: string;
  private readonly listeners = new Set<(approvals: ApprovalMap) => void>();
  private readonly subscription: { dispose(): void };

  private constructor(
    private readonly db: StateDatabase,
    workspaceFolder: string,
  ) {
    this.workspace = resolve(workspaceFolder);
    this.subscription = db.onChange((change) => {
      if (change.kind === 'reconnected' || (change.kind === 'approvals' && change.workspace === this.workspace))
        void this.reload().catch(() => undefined);
    });
  }

  static async open(db: StateDatabase, workspaceFolder: string): Promise<PgApprovals> {
    const store = new PgApprovals(db, workspaceFolder);
    await store.reload();
    return store;
  }

  /** The approvals as last read. */
  current(): ApprovalMap {
    return { ...this.map };
  }

  /** Records these approvals (merged into the workspace's), then tells every replica. */
  async save(approvals: ApprovalMap): Promise<void> {
    await this.db.transaction('saving approvals', async (c) => {
      for (const [server, fingerprint] of Object.entries(approvals))
        await c.query(
          `INSERT INTO mcp_lens_approvals (workspace, server, fingerprint, replica) VALUES ($1, $2, $3, $4)
           ON CONFLICT (workspace, server) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
             approved_at = now(), replica = EXCLUDED.replica`,
          [this.workspace, server, fingerprint, this.db.replica],
        );
    });
    this.map = { ...this.map, ...approvals };
    await this.db.notify({ kind: 'approvals', workspace: this.workspace });
  }

  /** Called with the whole map whenever another replica changed it. */
  onDidChange(listener: (approvals: ApprovalMap) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  close(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }

  private async reload(): Promise<void> {
    const rows = await this.db.query<{ server: string; fingerprint: string }>(
      'reading approvals',
      'SELECT server, fingerprint FROM mcp_lens_approvals WHERE workspace = $1',
      [this.workspace],
    );
    const next: ApprovalMap = {};
    for (const r of rows) next[r.server] = r.fingerprint;
    const changed = JSON.stringify(next) !== JSON.stringify(this.map);
    this.map = next;
    if (changed) for (const l of this.listeners) l({ ...next });
  }
}
