/**
 * Keeps stray `console.log` output of libraries off stdout, which carries MCP or LSP messages
 * in the stdio front doors. While installed, console.log/info/debug go to the Logger (which
 * writes to stderr or the editor's log channel). console.warn/error already write to stderr.
 * The front doors install it once at process start; adapters must not rely on it.
 */
import { format } from 'node:util';
import type { Logger } from '../core/logger';

export interface StdoutGuard {
  /** Restores the console methods this guard replaced. */
  dispose(): void;
}

type ConsoleMethod = 'log' | 'info' | 'debug';

let active: { log: Logger; originals: Record<ConsoleMethod, (...args: unknown[]) => void> } | undefined;

/** Redirects console.log/info/debug to `log`. Installing again only swaps the logger. */
export function installStdoutGuard(log: Logger): StdoutGuard {
  if (active) {
    active.log = log;
  } else {
    const originals = { log: console.log, info: console.info, debug: console.debug };
    const state = { log, originals };
    const redirect =
      (method: ConsoleMethod) =>
      (...args: unknown[]) => {
        try {
          state.log.debug(`[console.${method}] ${format(...args)}`);
        } catch {
          // Logging must never throw into the library that printed.
        }
      };
    console.log = redirect('log');
    console.info = redirect('info');
    console.debug = redirect('debug');
    active = state;
  }
  const owner = active;
  return {
    dispose() {
      if (active !== owner) return;
      console.log = owner.originals.log;
      console.info = owner.originals.info;
      console.debug = owner.originals.debug;
      active = undefined;
    },
  };
}
