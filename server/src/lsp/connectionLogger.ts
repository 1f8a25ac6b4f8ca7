/**
 * The sidecar's Logger over the LSP connection: every line becomes a `window/logMessage` that
 * the extension shows in its one `MCP Lens` LogOutputChannel. Never stdout.
 */
import type { Connection } from 'vscode-languageserver/node';
import { lineLogger, type Logger, type LogLevel } from '../core/logger';

export function connectionLogger(connection: Connection, min: LogLevel = 'debug'): Logger {
  return lineLogger((level, line) => {
    try {
      switch (level) {
        case 'error':
          connection.console.error(line);
          break;
        case 'warn':
          connection.console.warn(line);
          break;
        case 'info':
          connection.console.info(line);
          break;
        default:
          // LSP 3.17's Debug level; the client's channel filters it by its own level.
          connection.console.log(line);
      }
    } catch {
      // A closed connection must not turn a log line into a crash.
    }
  }, min);
}
