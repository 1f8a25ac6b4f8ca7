/**
 * The extension's half of signing in to remote servers (the sidecar's is server/src/lsp/
 * editorOAuth.ts): OAuth records in VS Code's SecretStorage, the authorization page in the
 * user's browser through `vscode.env.openExternal`, and the sidecar's loopback redirect mapped
 * with `vscode.env.asExternalUri` so a browser on another machine (a remote window, code-server)
 * reaches it. The sidecar reaches only its own `oauth.<hex>` records, never the `${input:…}`
 * values kept beside them.
 */
import * as vscode from 'vscode';
import {
  ExternalRedirectRequest,
  OAuthSecretReadRequest,
  OAuthSecretWriteRequest,
  OpenAuthorizationRequest,
} from '../../protocol/lspProtocol';
import type { Sidecar } from './sidecar';

const KEY = /^oauth\.[0-9a-f]{32}$/;
const PREFIX = 'mcpLens.';
/** A record is a few kilobytes; anything far larger is not one. */
const MAX_RECORD = 64 * 1024;

function secretKey(key: unknown): string {
  if (typeof key !== 'string' || !KEY.test(key)) throw new Error('not an MCP Lens sign-in record');
  return PREFIX + key;
}

function httpUri(raw: unknown): vscode.Uri {
  if (typeof raw !== 'string') throw new Error('not an address');
  const uri = vscode.Uri.parse(raw, true);
  if (uri.scheme !== 'https' && uri.scheme !== 'http') throw new Error(`refusing to open a ${uri.scheme}: address`);
  return uri;
}

export function registerOAuthBridge(
  sidecar: Sidecar,
  secrets: vscode.SecretStorage,
  log: vscode.LogOutputChannel,
): void {
  sidecar.onRequest(OAuthSecretReadRequest, async (p) => ({ value: (await secrets.get(secretKey(p?.key))) ?? null }));
  sidecar.onRequest(OAuthSecretWriteRequest, async (p) => {
    const key = secretKey(p?.key);
    if (p.value === null) await secrets.delete(key);
    else if (typeof p.value === 'string' && p.value.length <= MAX_RECORD) await secrets.store(key, p.value);
    else throw new Error('not an MCP Lens sign-in record');
    return null;
  });
  sidecar.onRequest(ExternalRedirectRequest, async (p) => {
    const local = httpUri(p?.uri);
    if (local.authority.split(':')[0] !== '127.0.0.1') throw new Error('only a loopback redirect is mapped');
    return { uri: (await vscode.env.asExternalUri(local)).toString(true) };
  });
  sidecar.onRequest(OpenAuthorizationRequest, async (p) => {
    const uri = httpUri(p?.url);
    // Only the authorization server's host is logged: the address carries the sign-in's state.
    log.info(`opening the sign-in page of ${String(p.server)} (${uri.authority}) in the browser`);
    return { opened: await vscode.env.openExternal(uri) };
  });
}
