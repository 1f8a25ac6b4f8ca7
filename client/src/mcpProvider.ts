/**
 * Registers MCP Lens with VS Code as one MCP server (streamable HTTP on 127.0.0.1 with a bearer
 * token). The definition changes, and VS Code is told, whenever the sidecar's port, token or
 * catalog version changes; resolving waits for the sidecar so a start during a restart works.
 */
import * as vscode from 'vscode';
import type { Sidecar } from './sidecar';

export const MCP_PROVIDER_ID = 'mcpLens';
export const MCP_SERVER_LABEL = 'MCP Lens';

export function registerMcpProvider(sidecar: Sidecar): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const onGateway = sidecar.onDidChangeGateway(() => changed.fire());
  const provider: vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const info = sidecar.gateway;
      if (!info) {
        // Listed even before the sidecar is up so the user sees it; resolve fills in the address.
        return [new vscode.McpHttpServerDefinition(MCP_SERVER_LABEL, vscode.Uri.parse('http://127.0.0.1/mcp'), {}, 'starting')];
      }
      return [definition(info)];
    },
    resolveMcpServerDefinition: async (server, token) => {
      const ready = await sidecar.whenReady(token);
      const info = sidecar.gateway;
      if (!ready || !info) return undefined;
      const resolved = definition(info);
      server.uri = resolved.uri;
      server.headers = resolved.headers;
      server.version = resolved.version;
      return server;
    },
  };
  const registration = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  return vscode.Disposable.from(registration, onGateway, changed);
}

function definition(info: { url: string; token: string; catalogVersion: string }): vscode.McpHttpServerDefinition {
  return new vscode.McpHttpServerDefinition(
    MCP_SERVER_LABEL,
    vscode.Uri.parse(info.url),
    { Authorization: `Bearer ${info.token}` },
    info.catalogVersion,
  );
}
