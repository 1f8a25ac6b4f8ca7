/**
 * Files that let `mcp-lens stats` (and the user) find a running HTTP gateway:
 * `<workspace>/.mcp-lens/gateway.json` `{ url, pid }` (no secret in it) and, when the token
 * was generated rather than given in MCP_LENS_TOKEN, `<workspace>/.mcp-lens/token`. Both are
 * written 0600 and never through a link; both are read only when MCP Lens wrote them (a clone
 * can ship either: see adapters/privateFiles.ts), and gateway.json is believed only once its pid
 * is a live MCP Lens process of this user, its URL is loopback, and the server there proves it
 * knows the token (see cli/stats.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateFileSync, ensurePrivateDir, readPrivateFile, writePrivateFile } from '../adapters/privateFiles';

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

/** `.mcp-lens/` (0700, never a link), which ignores itself in git: it holds the token. */
function ensureGatewayDir(workspaceFolder: string): void {
  const dir = ensurePrivateDir(gatewayDir(workspaceFolder));
  createPrivateFileSync(join(dir, '.gitignore'), '*\n');
}

export function writeTokenFile(workspaceFolder: string, token: string): string {
  ensureGatewayDir(workspaceFolder);
  const file = tokenPath(workspaceFolder);
  writePrivateFile(file, token + '\n');
  return file;
}

export function writeGatewayInfo(workspaceFolder: string, info: GatewayInfo): string {
  ensureGatewayDir(workspaceFolder);
  const file = infoPath(workspaceFolder);
  writePrivateFile(file, JSON.stringify(info, null, 2) + '\n');
  return file;
}

export type GatewayInfoRead = { info: GatewayInfo } | { missing: true } | { refused: string };

/** gateway.json as MCP Lens wrote it; `refused` names why a file there is not believed. */
export function readGatewayInfo(workspaceFolder: string): GatewayInfoRead {
  const read = readPrivateFile(infoPath(workspaceFolder));
  if (!('text' in read)) return read;
  try {
    const v = JSON.parse(read.text) as Partial<GatewayInfo>;
    if (typeof v.url === 'string' && typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0)
      return { info: { url: v.url, pid: v.pid } };
  } catch {
    // fall through
  }
  return { refused: 'it is not {"url": string, "pid": number}' };
}

/** The token MCP Lens generated for this workspace, if it wrote one (a shipped file is not read). */
export function readTokenFile(workspaceFolder: string): string | undefined {
  const read = readPrivateFile(tokenPath(workspaceFolder));
  return 'text' in read ? read.text.trim() || undefined : undefined;
}

/** Removes gateway.json (and our token file) if they still describe this process. */
export function removeGatewayFiles(workspaceFolder: string, pid: number, removeToken: boolean): void {
  const read = readGatewayInfo(workspaceFolder);
  if (!('info' in read) || read.info.pid !== pid) return;
  rmSync(infoPath(workspaceFolder), { force: true });
  if (removeToken) rmSync(tokenPath(workspaceFolder), { force: true });
}

/** True for http URLs on 127.0.0.1, ::1 or localhost: the only places a gateway of ours listens. */
export function isLoopbackHttpUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  return (
    u.protocol === 'http:' &&
    (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]') &&
    u.username === '' &&
    u.password === ''
  );
}
