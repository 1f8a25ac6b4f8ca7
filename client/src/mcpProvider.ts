/**
 * Registers MCP Lens with VS Code as one MCP server (streamable HTTP on 127.0.0.1 with a bearer
 * token). The definition, its version included, changes only when MCP Lens's own launch
 * details (URL, token) do: VS Code restarts a server whose version changed, which would cancel
 * the agent's running calls. What the catalog holds reaches VS Code as tools/list_changed.
 * The extension keeps the token and port across sidecar restarts (extension.ts), so even a
 * crashed sidecar comes back under the same definition. Resolving waits for the sidecar.
 */
import * as vscode from 'vscode';
import { launchVersion } from './launchVersion';
import type { Sidecar } from './sidecar';

export const MCP_PROVIDER_ID = 'mcpLens';
export const MCP_SERVER_LABEL = 'MCP Lens';

export function registerMcpProvider(sidecar: Sidecar, ensureStarted: () => Promise<void>): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const onGateway = sidecar.onDidChangeGateway(() => changed.fire());
  // Waking from dormant (a config file appeared): MCP Lens now has something to offer.
  let listed = sidecar.state !== 'stopped';
  const onState = sidecar.onDidChangeState((state) => {
    if (!listed && state !== 'stopped') {
      listed = true;
      changed.fire();
    }
  });
  const provider: vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      // Dormant (no MCP configuration in this window): nothing to stand in front of.
      if (!listed) return [];
      const info = sidecar.gateway;
      if (!info) {
        // Listed even before the sidecar is up so the user sees it; resolve fills in the address.
        return [
          new vscode.McpHttpServerDefinition(
            MCP_SERVER_LABEL,
            vscode.Uri.parse('http://127.0.0.1/mcp'),
            {},
            'starting',
          ),
        ];
      }
      return [definition(info)];
    },
    resolveMcpServerDefinition: async (server, token) => {
      void ensureStarted();
      const ready = await sidecar.whenReady(token);
      const info = sidecar.gateway;
      if (!ready || !info) return undefined;
      const resolved = definition(info);
      server.uri = resolved.uri;
      server.headers = resolved.headers;
      if (resolved.version !== undefined) server.version = resolved.version;
      return server;
    },
  };
  const registration = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  return vscode.Disposable.from(registration, onGateway, onState, changed);
}

function definition(info: { url: string; token: string }): vscode.McpHttpServerDefinition {
  return new vscode.McpHttpServerDefinition(
    MCP_SERVER_LABEL,
    vscode.Uri.parse(info.url),
    { Authorization: `Bearer ${info.token}` },
    launchVersion(info),
  );
}
