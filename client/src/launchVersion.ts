/** The MCP server definition's version (pure, unit-tested without VS Code). */
import { createHash } from 'node:crypto';

/**
 * Follows MCP Lens's launch details only (URL and token), so VS Code restarts the server only
 * when it must reconnect anyway. A hash, so the token never shows where the version does.
 */
export function launchVersion(info: { url: string; token: string }): string {
  return createHash('sha256').update(`${info.url}\n${info.token}`).digest('hex').slice(0, 16);
}
