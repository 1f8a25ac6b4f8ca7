/**
 * vscode-languageclient writes its own and the sidecar's log lines as `[Error - 12:00:00] text`
 * with `appendLine`; this channel routes them to the matching level of the one `MCP Lens`
 * LogOutputChannel, so the level filter and colours work and timestamps are not doubled.
 *
 * The protocol trace (`mcpLens.trace.server`) goes through a channel made with
 * `payloads: false`: a verbose trace writes every message's params and result, which carry
 * `${input:…}` values, the gateway token and tool arguments. Only which message went which
 * way is kept.
 */
import type * as vscode from 'vscode';

const PREFIX = /^\[(Error|Warn|Info|Debug|Trace|LSP)\s*- [^\]]*\]\s?/;
const CLEAN_EXIT = /^Server process exited with code 0\.?$/;

export function levelRoutingChannel(
  log: vscode.LogOutputChannel,
  options: { payloads: boolean } = { payloads: true },
): vscode.OutputChannel {
  let pending = '';
  const route = (line: string): void => {
    const m = PREFIX.exec(line);
    let text = m ? line.slice(m[0].length) : line;
    if (!options.payloads) {
      // Params and results arrive as lines of their own (text format) or inside an LSP line (json format).
      if (!m) return;
      text = m[1] === 'LSP' ? messageSummary(text) : text.split('\n')[0]!;
    }
    switch (m?.[1]) {
      case 'Error':
        // vscode-languageclient reports every exit as an error, a clean stop (code 0) included.
        if (CLEAN_EXIT.test(text)) log.info(text);
        else log.error(text);
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

/** `send-request mcpLens/search (id 3)` from a json-format trace line, without its params or result. */
function messageSummary(json: string): string {
  try {
    const d = JSON.parse(json) as { type?: unknown; message?: { method?: unknown; id?: unknown } };
    const id = typeof d.message?.id === 'number' || typeof d.message?.id === 'string' ? ` (id ${d.message.id})` : '';
    return `${String(d.type ?? 'message')} ${typeof d.message?.method === 'string' ? d.message.method : ''}${id}`
      .replace(/\s+/g, ' ')
      .trim();
  } catch {
    return 'message (not shown)';
  }
}
