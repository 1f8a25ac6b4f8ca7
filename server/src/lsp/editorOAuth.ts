/**
 * Signing in to remote servers from the editor: the sidecar runs the OAuth flow and the upstream
 * connections, the extension owns what the sidecar must not: VS Code's SecretStorage (tokens are
 * read and written through OAuthSecretRead/WriteRequest, never kept on disk here) and the
 * browser (OpenAuthorizationRequest, `vscode.env.openExternal`).
 *
 * The redirect comes back to a loopback listener the sidecar opens on 127.0.0.1 for each sign-in
 * (adapters/upstream/auth/loopbackRedirect.ts), its address mapped by the extension with
 * `vscode.env.asExternalUri` (ExternalRedirectRequest): the same address on a desktop, a
 * forwarded one in a remote window or in code-server, so a browser on another machine still
 * reaches it. Chosen over the extension's URI handler (`vscode://…`): authorization servers
 * accept loopback redirects for native apps (RFC 8252) far more widely than custom schemes,
 * and the CLI signs in the same way.
 */
import type { Connection } from 'vscode-languageserver/node';
import {
  ExternalRedirectRequest,
  OAuthSecretReadRequest,
  OAuthSecretWriteRequest,
  OpenAuthorizationRequest,
} from '../../../protocol/lspProtocol';
import { parseStoredOAuth } from '../adapters/upstream/auth/oauthStore';
import type { OAuthEnvironment } from '../adapters/upstream/auth/types';

/** `ready` resolves once the editor is initialized: before that, it cannot answer requests. */
export function editorOAuth(connection: Connection, ready: Promise<void>): OAuthEnvironment {
  return {
    store: {
      async read(key) {
        await ready;
        const { value } = await connection.sendRequest(OAuthSecretReadRequest, { key });
        if (value === null) return undefined;
        try {
          return parseStoredOAuth(JSON.parse(value));
        } catch {
          return undefined;
        }
      },
      async write(key, value) {
        await ready;
        await connection.sendRequest(OAuthSecretWriteRequest, {
          key,
          value: value === undefined ? null : JSON.stringify(value),
        });
      },
    },
    door: {
      async externalRedirect(uri) {
        await ready;
        return (await connection.sendRequest(ExternalRedirectRequest, { uri })).uri;
      },
      async openAuthorization(server, url) {
        await ready;
        const { opened } = await connection.sendRequest(OpenAuthorizationRequest, { server, url: url.href });
        if (!opened) throw new Error(`${server}: the browser did not open the sign-in page`);
      },
    },
    signInHint: () => 'use Sign in (status bar, "MCP Lens: List Servers" or the dashboard)',
  };
}
