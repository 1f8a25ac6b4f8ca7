/**
 * `serve --http` on a terminal: what comes to wait for approval while it serves (a server added
 * to a config file, a changed definition, a tool filter that would show more tools) is asked
 * about on that terminal, one question at a time and once per definition or filter. An approved
 * server is recorded in the approval store as `mcp-lens tools` records it; an approved tool
 * filter holds for this run (the next start accepts the settings file as it is).
 */
import { escapeForDisplay } from '../../../protocol/untrustedText';
import type { Disposable, Lens } from '../app/lens';
import type { LensControl, PendingApproval } from '../app/lensControl';
import { loadApprovals, saveApprovals } from '../adapters/config/approvalStore';
import type { Logger } from '../core/logger';
import { errorMessage } from '../core/errorMessage';
import { approvalQuestion, askYesNo } from './prompt';

export function promptWhileServing(lens: Lens & LensControl, log: Logger): Disposable {
  const asked = new Set<string>();
  let running = false;
  let again = false;
  const key = (p: PendingApproval) => `${p.name}\0${p.fingerprint}`;
  const stillPending = (p: PendingApproval) => lens.pendingApprovals().some((q) => key(q) === key(p));
  const run = async (): Promise<void> => {
    if (running) return void (again = true);
    running = true;
    try {
      do {
        again = false;
        for (const p of lens.pendingApprovals()) {
          if (asked.has(key(p))) continue;
          asked.add(key(p));
          // Answered elsewhere meanwhile (the dashboard, another terminal), or changed again.
          if (!stillPending(p) || !(await askYesNo(approvalQuestion(p))) || !stillPending(p)) continue;
          if (p.kind !== 'tool-filter')
            saveApprovals(lens.workspaceFolder, { ...loadApprovals(lens.workspaceFolder), [p.name]: p.fingerprint });
          await lens.approve({ [p.name]: p.fingerprint });
          // The answer's effect, on the terminal that asked.
          process.stderr.write(
            p.kind === 'tool-filter'
              ? 'MCP Lens: the new tool filter applies.\n'
              : `MCP Lens: ${escapeForDisplay(p.name)} approved; starting it.\n`,
          );
        }
      } while (again);
    } catch (err) {
      log.error(`approval prompt: ${errorMessage(err)}`);
    } finally {
      running = false;
    }
  };
  // What waits already was asked about at start (openLens): a refusal there stands.
  for (const p of lens.pendingApprovals()) asked.add(key(p));
  return lens.onDidChange((change) => {
    if (change === 'servers') void run();
  });
}
