/**
 * The SDK's OAuthClientProvider for one remote server. The SDK's `auth()` does the protocol
 * (discovery, registration, PKCE, the resource indicator, scope selection, refresh); this class
 * only keeps state and decides what happens where a browser would be needed:
 *  - in the background (a connect, a call) no browser ever opens: where the flow would redirect,
 *    or would register a client first, it throws NeedsSignInError and the server shows
 *    `needs-sign-in`;
 *  - during a sign-in (signIn.ts) the authorization URL goes to the front door (the editor's
 *    browser, the CLI's terminal) and the redirect comes back to a loopback listener.
 * Tokens and the registered client go to an OAuthStore, never to a log or an error.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthClientConfig } from '../../../core/config/types';
import { NeedsSignInError } from './needsSignIn';
import type { OAuthStore, StoredOAuth } from './oauthStore';

/** The redirect URI in the background, where no listener runs: it is never registered nor opened. */
const IDLE_REDIRECT = 'http://127.0.0.1/callback';

/** A sign-in under way: where the browser comes back to, and how the authorization page is shown. */
export interface SignInSession {
  redirectUri: string;
  state: string;
  open(url: URL): Promise<void>;
}

export interface ProviderOptions {
  /** The server's name, for messages. */
  server: string;
  store: OAuthStore;
  key: string;
  config?: OAuthClientConfig | undefined;
  clientName: string;
}

/** An https URL with a path: a Client ID Metadata Document, not an id registered by hand. */
export function isClientMetadataUrl(clientId: string): boolean {
  try {
    const u = new URL(clientId);
    return u.protocol === 'https:' && u.pathname !== '/';
  } catch {
    return false;
  }
}

export class LensOAuthProvider implements OAuthClientProvider {
  private session: SignInSession | undefined;
  private verifier: string | undefined;
  /** The scope of the last authorization the background flow wanted (a step-up names more). */
  wantedScope: string | undefined;

  /** Set when `oauth.clientId` is a Client ID Metadata Document: the SDK uses it where the authorization server supports one. */
  readonly clientMetadataUrl?: string;

  constructor(private readonly o: ProviderOptions) {
    const id = o.config?.clientId;
    if (id !== undefined && isClientMetadataUrl(id)) this.clientMetadataUrl = id;
  }

  /** Starts a sign-in: the next authorization opens the browser. Tokens are hidden meanwhile, so the flow asks afresh. */
  beginSignIn(session: SignInSession): void {
    this.session = session;
    this.verifier = undefined;
  }

  endSignIn(): void {
    this.session = undefined;
    this.verifier = undefined;
  }

  get redirectUrl(): string {
    return this.session?.redirectUri ?? IDLE_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    // A native app (RFC 8252): a public client with PKCE, coming back to a loopback address.
    const metadata: OAuthClientMetadata & { application_type: string } = {
      client_name: this.o.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      ...(this.o.config?.scopes?.length && { scope: this.o.config.scopes.join(' ') }),
    };
    return metadata;
  }

  state(): string {
    return this.session?.state ?? randomBytes(16).toString('base64url');
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const config = this.o.config;
    // Registered by hand: the id (and secret) come from the configuration, every time.
    if (config && !isClientMetadataUrl(config.clientId))
      return {
        client_id: config.clientId,
        ...(config.clientSecret !== undefined && { client_secret: config.clientSecret }),
      };
    const stored = (await this.o.store.read(this.o.key))?.client;
    // A client registered for another redirect URI (another loopback port) is registered again.
    if (
      stored &&
      this.session &&
      'redirect_uris' in stored &&
      Array.isArray(stored.redirect_uris) &&
      !stored.redirect_uris.includes(this.session.redirectUri)
    )
      return undefined;
    if (stored || this.session) return stored;
    // Registering needs a redirect URI someone listens on: only a sign-in registers.
    throw new NeedsSignInError(this.o.server);
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    const config = this.o.config;
    if (config && !isClientMetadataUrl(config.clientId)) return; // the configuration stays the source
    await this.update((r) => ({ ...r, client: info }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.session) return undefined;
    return (await this.o.store.read(this.o.key))?.tokens;
  }

  /** Whether tokens the user signed in for can be refreshed without them (a refresh token is stored). */
  async canRefresh(): Promise<boolean> {
    if (this.session) return false;
    return (await this.o.store.read(this.o.key))?.tokens?.refresh_token !== undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((r) => ({ ...r, tokens, savedAt: Date.now() }));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.session) {
      this.wantedScope = url.searchParams.get('scope') ?? undefined;
      throw new NeedsSignInError(this.o.server, this.wantedScope);
    }
    await this.session.open(url);
  }

  saveCodeVerifier(verifier: string): void {
    if (this.session) this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error(`${this.o.server}: no sign-in is under way`);
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'all') await this.o.store.write(this.o.key, undefined);
    if (scope === 'client') await this.update(({ client: _client, ...rest }) => rest);
    if (scope === 'tokens') await this.update(({ tokens: _tokens, savedAt: _savedAt, ...rest }) => rest);
  }

  private async update(change: (record: StoredOAuth) => StoredOAuth): Promise<void> {
    const record = (await this.o.store.read(this.o.key)) ?? {};
    await this.o.store.write(this.o.key, change(record));
  }
}
