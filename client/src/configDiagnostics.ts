/**
 * Shows the sidecar's configuration problems as diagnostics on the exact JSON range in
 * .vscode/mcp.json (or whichever file declared the server). Problems without an offset mark
 * the file's first line; a problem's note (what MCP Lens does meanwhile) is its related line.
 */
import * as vscode from 'vscode';
import type { ConfigProblemInfo, ConfigProblemsParams } from '../../protocol/lspProtocol';
import { offsetToPosition } from './textPosition';

export class ConfigDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('mcpLens');
  private generation = 0;

  async show(params: ConfigProblemsParams): Promise<void> {
    const generation = ++this.generation;
    const byFile = new Map<string, ConfigProblemInfo[]>();
    for (const p of params.problems) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
    const entries: [vscode.Uri, vscode.Diagnostic[]][] = [];
    for (const [file, problems] of byFile) {
      const uri = vscode.Uri.file(file);
      // Read only to place a range: a file the sidecar refused (a FIFO, a device) has none.
      const text = problems.some((p) => p.offset !== undefined) ? await readText(uri) : '';
      entries.push([uri, problems.map((p) => diagnostic(p, text))]);
    }
    if (generation !== this.generation) return; // a newer set arrived while reading files
    this.collection.clear();
    this.collection.set(entries);
  }

  clear(): void {
    this.collection.clear();
  }

  dispose(): void {
    this.collection.dispose();
  }
}

async function readText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
}

function diagnostic(p: ConfigProblemInfo, text: string): vscode.Diagnostic {
  let range = new vscode.Range(0, 0, 0, 0);
  if (p.offset !== undefined) {
    const a = offsetToPosition(text, p.offset);
    const b = offsetToPosition(text, p.offset + (p.length ?? 0));
    range = new vscode.Range(a.line, a.character, b.line, b.character);
  }
  const d = new vscode.Diagnostic(
    range,
    p.path ? `${p.message} (${p.path})` : p.message,
    p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  d.source = 'MCP Lens';
  // What MCP Lens does meanwhile goes on a line of its own under the problem, so the problem's
  // own line stays short enough to read whole in the Problems panel.
  if (p.note)
    d.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(p.file), range), p.note),
    ];
  return d;
}
