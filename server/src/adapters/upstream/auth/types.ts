/**
 * What the upstream pool needs from a front door to sign in to remote servers: where OAuth state
 * is kept, and how the user sees the authorization page. Each front door supplies its own
 * (lsp/: VS Code's SecretStorage and browser, through the extension; cli/: a 0600 file and the
 * terminal).
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Where a remote server's OAuth state is kept between runs: its registered client and its
 * tokens, one record per server definition (name and URL). The editor keeps records in VS Code's
 * SecretStorage (through the extension, lsp/secretOAuthStore.ts), the CLI in a 0600 file under the
 * user's config folder (fileOAuthStore.ts); never in the workspace, never in a log.
 */
export interface StoredOAuth {
  /** The client registered dynamically or named by a Client ID Metadata Document, stamped with its authorization server (`issuer`). */
  client?: OAuthClientInformationMixed;
  /** Tokens as the SDK saved them, stamped with the authorization server that issued them (`issuer`). */
  tokens?: OAuthTokens;
  /** Epoch ms when the tokens were saved (with `expires_in`, when they expire). */
  savedAt?: number;
}

export interface OAuthStore {
  read(key: string): Promise<StoredOAuth | undefined>;
  /** `undefined` deletes the record (sign out). */
  write(key: string, value: StoredOAuth | undefined): Promise<void>;
}

/** How a sign-in reaches the user. */
export interface SignInDoor {
  /**
   * The redirect URI the browser can reach, given the loopback one the sidecar listens on: in
   * VS Code, `vscode.env.asExternalUri` (the same address on a desktop, a forwarded one in a
   * remote window or code-server). Absent: the loopback URI as it is.
   */
  externalRedirect?(loopbackUri: string): Promise<string>;
  /** Shows the authorization page (opens the browser or prints the address); resolves once handed over. */
  openAuthorization(server: string, url: URL): Promise<void>;
}

export interface OAuthEnvironment {
  store: OAuthStore;
  /** Absent: nothing here can show a browser; servers that need sign-in stay `needs-sign-in`. */
  door?: SignInDoor;
  /**
   * Sign in as soon as a server asks (at connect, or for more scopes during a call) instead of
   * waiting for the user's command: `mcp-lens login`, tests, the conformance client. At most
   * AUTO_SIGN_INS in a row per server without a success in between.
   */
  autoSignIn?: boolean;
  /** How long a sign-in waits for the browser to come back (default 5 minutes). */
  signInTimeoutMs?: number;
  /** `client_name` in dynamic registration (default "MCP Lens"). */
  clientName?: string;
  /** How to sign in here, for the server's status (`run \`mcp-lens login github\``); default: a generic hint. */
  signInHint?(server: string): string;
}
