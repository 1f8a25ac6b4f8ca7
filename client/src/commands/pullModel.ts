/** "Pull Embedding Model": asks the sidecar to pull the Ollama model, with a progress notification. */
import * as vscode from 'vscode';
import { PullModelRequest, type PullProgressParams } from '../../../protocol/lspProtocol';
import { errorText, type Sidecar } from '../sidecar';

export async function pullModel(sidecar: Sidecar): Promise<void> {
  const model = vscode.workspace.getConfiguration('mcpLens').get<string>('embedding.model', 'nomic-embed-text');
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `MCP Lens: pulling ${model}`, cancellable: false },
    (progress) =>
      new Promise<PullProgressParams | Error>((resolve) => {
        let lastPercent = 0;
        const sub = sidecar.onPullProgress((p) => {
          const percent = p.total ? Math.floor(((p.completed ?? 0) / p.total) * 100) : undefined;
          progress.report({
            message: `${p.status}${percent !== undefined ? ` ${percent}%` : ''}`,
            ...(percent !== undefined && percent > lastPercent ? { increment: percent - lastPercent } : {}),
          });
          if (percent !== undefined) lastPercent = Math.max(lastPercent, percent);
          if (p.done) {
            sub.dispose();
            resolve(p);
          }
        });
        sidecar.request(PullModelRequest).then(
          () => undefined,
          (err: unknown) => {
            sub.dispose();
            resolve(new Error(errorText(err)));
          },
        );
      }),
  );
  if (outcome instanceof Error)
    void vscode.window.showErrorMessage(`MCP Lens: could not pull ${model}: ${outcome.message}`);
  else if (outcome.error)
    void vscode.window.showErrorMessage(`MCP Lens: could not pull ${outcome.model}: ${outcome.error}`);
  else void vscode.window.showInformationMessage(`MCP Lens: ${outcome.model} is ready; tools are being embedded.`);
}
