import { stripControls } from '../../../protocol/untrustedText';

/**
 * The one logging contract of the sidecar. The CLI writes to stderr, the LSP front door
 * forwards to the editor's LogOutputChannel. Nothing ever logs to stdout, secrets or tool
 * arguments.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

/**
 * A logger over a sink of lines (stderr, an LSP log message, a test buffer). Log lines quote
 * third-party text (tool names, upstream errors, stderr), and a person reads them in a terminal
 * or the editor: every line loses terminal escapes, control (but tab and newline), bidi and
 * invisible characters here, at the sink (protocol/untrustedText.ts stripControls).
 */
export function lineLogger(sink: (level: LogLevel, line: string) => void, min: LogLevel = 'info'): Logger {
  const at = (level: LogLevel) => (message: string) => {
    if (ORDER[level] >= ORDER[min]) sink(level, stripControls(message));
  };
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = lineLogger(() => undefined, 'error');
