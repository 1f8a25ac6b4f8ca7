/** Which servers count as duplicates of VS Code's own (pure, unit-tested without VS Code). */
import type { ServerStatus } from '../../protocol/model';

/**
 * Servers from .vscode/mcp.json that VS Code also offers. `working`: only those running under
 * MCP Lens (not broken, invalid, failed or waiting for approval).
 */
export function duplicateServers(
  servers: readonly ServerStatus[],
  options: { working?: boolean } = {},
): ServerStatus[] {
  return servers.filter(
    (s) =>
      s.source === 'vscode-mcp-json' &&
      s.alsoStartedByEditor !== false &&
      !s.configFile &&
      s.state !== 'disabled' &&
      (!options.working || s.state === 'ready'),
  );
}
