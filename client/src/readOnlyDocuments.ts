/**
 * Read-only JSON documents (a tool's schema, a tool call's result) under the `mcp-lens:` scheme.
 * Third-party text is shown as plain JSON text, never rendered as markdown.
 */
import * as vscode from 'vscode';
import { sideColumn } from './sideColumn';

export const SCHEME = 'mcp-lens';

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  /** Where the last document opened: the next one goes there too instead of a new split. */
  private lastColumn: vscode.ViewColumn | undefined;
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Opens (or refreshes) `mcp-lens:/<name>.json` beside the active editor, in one side column (sideColumn.ts). */
  async show(name: string, value: unknown): Promise<void> {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name.replace(/[^\w.-]+/g, '_')}.json` });
    this.contents.set(uri.toString(), JSON.stringify(value, null, 2) + '\n');
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    const column = sideColumn(vscode.window.tabGroups, this.lastColumn);
    const editor = await vscode.window.showTextDocument(doc, {
      preview: true,
      viewColumn: column === 'beside' ? vscode.ViewColumn.Beside : column,
    });
    this.lastColumn = editor.viewColumn;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}
