/**
 * vscode-languageclient writes its own and the sidecar's log lines as `[Error - 12:00:00] text`
 * with `appendLine`; this channel routes them to the matching level of the one `MCP Lens`
 * LogOutputChannel, so the level filter and colours work and timestamps are not doubled.
 */
import type * as vscode from 'vscode';

const PREFIX = /^\[(Error|Warn|Info|Debug|Trace|LSP)\s*- [^\]]*\]\s?/;

export function levelRoutingChannel(log: vscode.LogOutputChannel): vscode.OutputChannel {
  let pending = '';
  const route = (line: string): void => {
    const m = PREFIX.exec(line);
    const text = m ? line.slice(m[0].length) : line;
    switch (m?.[1]) {
      case 'Error':
        log.error(text);
        break;
      case 'Warn':
        log.warn(text);
        break;
      case 'Debug':
        log.debug(text);
        break;
      case 'Trace':
      case 'LSP':
        log.trace(text);
        break;
      default:
        log.info(text);
    }
  };
  return {
    name: log.name,
    append(value: string) {
      pending += value;
    },
    appendLine(value: string) {
      route(pending + value);
      pending = '';
    },
    replace(value: string) {
      log.replace(value);
    },
    clear() {
      log.clear();
    },
    show(...args: unknown[]) {
      log.show(args[0] as boolean | undefined);
    },
    hide() {
      log.hide();
    },
    dispose() {
      // The log channel belongs to the extension, not to one LanguageClient.
    },
  };
}
