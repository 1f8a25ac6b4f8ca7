/**
 * `${input:id}` values (API keys and the like), asked once with a password box and kept in
 * SecretStorage, never in settings, workspace state or logs.
 */
import * as vscode from 'vscode';
import type { InputsNeededParams } from '../../protocol/lspProtocol';

const KEY = 'mcpLens.inputs';

export class InputStore {
  private values: Record<string, string> = {};
  /** Ids the user dismissed this session, so a stateChanged storm does not re-ask. */
  private readonly dismissed = new Set<string>();
  private asking = false;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async load(): Promise<void> {
    try {
      const text = await this.secrets.get(KEY);
      const parsed: unknown = text ? JSON.parse(text) : {};
      this.values = {};
      if (parsed && typeof parsed === 'object') {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') this.values[k] = v;
      }
    } catch {
      this.values = {};
    }
  }

  all(): Record<string, string> {
    return { ...this.values };
  }

  /** Asks for every missing input the user has not dismissed; true when something was added. */
  async ask(params: InputsNeededParams): Promise<boolean> {
    if (this.asking) return false;
    this.asking = true;
    let added = false;
    try {
      for (const input of params.inputs) {
        if (this.values[input.id] !== undefined || this.dismissed.has(input.id)) continue;
        const value = await vscode.window.showInputBox({
          title: `MCP Lens: value for \${input:${input.id}}`,
          prompt: input.description ?? `A server configuration refers to \${input:${input.id}}.`,
          password: input.password,
          ignoreFocusOut: true,
        });
        if (value === undefined) {
          this.dismissed.add(input.id);
          continue;
        }
        this.values[input.id] = value;
        added = true;
      }
      if (added) await this.secrets.store(KEY, JSON.stringify(this.values));
    } finally {
      this.asking = false;
    }
    return added;
  }

  async forget(): Promise<number> {
    const n = Object.keys(this.values).length;
    this.values = {};
    this.dismissed.clear();
    await this.secrets.delete(KEY);
    return n;
  }
}
