/** The one context the commands, the dashboard and the e2e hooks share. */
import type * as vscode from 'vscode';
import type { Approvals } from './approvals';
import type { InputStore } from './inputStore';
import type { ReadOnlyDocuments } from './readOnlyDocuments';
import type { Sidecar } from './sidecar';

export interface ExtensionServices {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  sidecar: Sidecar;
  inputs: InputStore;
  approvals: Approvals;
  docs: ReadOnlyDocuments;
  /** Sends current settings, approvals, inputs and trust to the sidecar. */
  pushSettings(): Promise<void>;
  /** Starts the sidecar if it is not started yet (the extension is dormant without MCP configuration). */
  ensureStarted(): Promise<void>;
}
