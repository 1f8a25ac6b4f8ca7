/** The CLI's logger: stderr only, since stdout carries results or MCP messages. */
import { lineLogger, type LogLevel, type Logger } from '../core/logger';

export function stderrLogger(level: LogLevel = levelFromEnv()): Logger {
  return lineLogger((lvl, line) => {
    process.stderr.write(`[mcp-lens ${lvl}] ${line.replace(/\n/g, '\n  ')}\n`);
  }, level);
}

function levelFromEnv(): LogLevel {
  const v = process.env.MCP_LENS_LOG;
  return v === 'trace' || v === 'debug' || v === 'info' || v === 'warn' || v === 'error' ? v : 'warn';
}
