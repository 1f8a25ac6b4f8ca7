/**
 * Files that let `mcp-lens stats` (and the user) find a running HTTP gateway:
 * `<workspace>/.mcp-lens/gateway.json` `{ url, pid }` (no secret in it) and, when the token
 * was generated rather than given in MCP_LENS_TOKEN, `<workspace>/.mcp-lens/token` (0600).
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GatewayInfo {
  url: string;
  pid: number;
}

export function gatewayDir(workspaceFolder: string): string {
  return join(workspaceFolder, '.mcp-lens');
}

export function tokenPath(workspaceFolder: string): string {
  return join(gatewayDir(workspaceFolder), 'token');
}

export function infoPath(workspaceFolder: string): string {
  return join(gatewayDir(workspaceFolder), 'gateway.json');
}

export function writeTokenFile(workspaceFolder: string, token: string): string {
  mkdirSync(gatewayDir(workspaceFolder), { recursive: true });
  const file = tokenPath(workspaceFolder);
  // Remove first: writeFileSync's mode only applies when it creates the file.
  rmSync(file, { force: true });
  writeFileSync(file, token + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function writeGatewayInfo(workspaceFolder: string, info: GatewayInfo): string {
  mkdirSync(gatewayDir(workspaceFolder), { recursive: true });
  const file = infoPath(workspaceFolder);
  writeFileSync(file, JSON.stringify(info, null, 2) + '\n');
  return file;
}

export function readGatewayInfo(workspaceFolder: string): GatewayInfo | undefined {
  try {
    const v = JSON.parse(readFileSync(infoPath(workspaceFolder), 'utf8')) as Partial<GatewayInfo>;
    return typeof v.url === 'string' && typeof v.pid === 'number' ? { url: v.url, pid: v.pid } : undefined;
  } catch {
    return undefined;
  }
}

export function readTokenFile(workspaceFolder: string): string | undefined {
  try {
    return readFileSync(tokenPath(workspaceFolder), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Removes gateway.json (and our token file) if they still describe this process. */
export function removeGatewayFiles(workspaceFolder: string, pid: number, removeToken: boolean): void {
  if (readGatewayInfo(workspaceFolder)?.pid !== pid) return;
  rmSync(infoPath(workspaceFolder), { force: true });
  if (removeToken) rmSync(tokenPath(workspaceFolder), { force: true });
}

/** True when a process with this pid exists (a stale gateway.json points at a dead one). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
