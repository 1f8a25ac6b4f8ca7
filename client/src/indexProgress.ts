/** A window progress indicator while the sidecar indexes tools, fed by mcpLens/stateChanged. */
import * as vscode from 'vscode';
import type { Sidecar } from './sidecar';

export function trackIndexProgress(sidecar: Sidecar): vscode.Disposable {
  let finish: (() => void) | undefined;
  let report: ((percent: number) => void) | undefined;
  const sub = sidecar.onDidChangeLens((state) => {
    const indexing = state.index.state === 'indexing';
    if (indexing && !finish) {
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'MCP Lens: indexing tools' },
        (progress) =>
          new Promise<void>((resolve) => {
            let last = 0;
            report = (percent) => {
              if (percent > last) progress.report({ increment: percent - last, message: `${Math.round(percent)}%` });
              last = Math.max(last, percent);
            };
            finish = () => {
              finish = undefined;
              report = undefined;
              resolve();
            };
          }),
      );
    }
    if (indexing) report?.((state.index.progress ?? 0) * 100);
    else finish?.();
  });
  const down = sidecar.onDidChangeState((s) => {
    if (s !== 'running') finish?.();
  });
  return vscode.Disposable.from(sub, down, { dispose: () => finish?.() });
}
