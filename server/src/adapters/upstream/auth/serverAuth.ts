/**
 * OAuth for one remote server: the provider the transports carry (lensOAuthProvider.ts), what
 * the server last asked for (challenges.ts), and the sign-in itself. The sign-in drives the
 * SDK's `auth()` as the SDK means it to be driven: a first call that ends in a redirect to the
 * authorization page, the code back through a loopback listener, a second call that exchanges it.
 */
import { randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../../../core/config/types';
import { ChallengeLog } from './challenges';
import { LensOAuthProvider } from './lensOAuthProvider';
import { LoopbackRedirect } from './loopbackRedirect';
import { NeedsSignInError } from './needsSignIn';
import { OAuthDestinations } from './oauthDestinations';
import { oauthFetch } from './oauthFetch';
import { oauthStoreKey } from './oauthStore';
import { OAuthRequestGuard } from './oauthRequestLimits';
import type { OAuthEnvironment } from './types';

/** How long a sign-in waits for the user; a call waiting on an unasked sign-in waits as long (connectionSignIn.ts). */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** Automatic sign-ins in a row without a successful request between them (a server that keeps refusing). */
export const AUTO_SIGN_INS = 2;

/** The options a remote transport is built with when the server may need sign-in. */
export interface AuthTransportOptions {
  authProvider: LensOAuthProvider;
  fetch: FetchLike;
}

export class ServerAuth {
  readonly provider: LensOAuthProvider;
  readonly challenges = new ChallengeLog();
  /** Where its OAuth requests may go, and the addresses refused so far (oauthDestinations.ts). */
  readonly destinations: OAuthDestinations;
  private readonly key: string;
  private running: Promise<void> | undefined;
  /** Automatic sign-ins since the last success. */
  private autoRuns = 0;

  /**
   * `requestTimeoutMs`: the longest one OAuth request may take, body included
   * (oauthRequestLimits.ts; the server's connect timeout).
   */
  constructor(
    private readonly config: RemoteServerConfig,
    private readonly env: OAuthEnvironment,
    private readonly requestTimeoutMs: number,
  ) {
    this.key = oauthStoreKey(config.name, config.url);
    this.destinations = new OAuthDestinations(config.name, config.url);
    this.provider = new LensOAuthProvider({
      server: config.name,
      store: env.store,
      key: this.key,
      config: config.oauth,
      clientName: env.clientName ?? 'MCP Lens',
    });
  }

  /** What the user does to sign in, for the server's status. */
  get hint(): string {
    return (
      this.env.signInHint?.(this.config.name) ??
      (this.env.door ? 'sign in to it' : 'sign in with `mcp-lens login` in a terminal')
    );
  }

  /** Whether to sign in now, unasked, and counts it (AUTO_SIGN_INS). */
  takeAutoSignIn(): boolean {
    if (!this.env.autoSignIn || !this.env.door || this.autoRuns >= AUTO_SIGN_INS) return false;
    this.autoRuns++;
    return true;
  }

  /** A request went through with the tokens: automatic sign-ins may run again later. */
  succeeded(): void {
    this.autoRuns = 0;
  }

  /** The OAuth requests refused for where they would go, for the server's status; undefined when none were. */
  refusedText(): string | undefined {
    const refused = this.destinations.refused;
    return refused.length ? `OAuth requests refused: ${refused.join('; ')}` : undefined;
  }

  /**
   * The transport's options: the provider, and a fetch that notes challenges, adds the
   * configured headers only to requests to the server's own origin (the SDK would otherwise send
   * them to the authorization server too, during discovery and token requests), and sends the
   * OAuth requests the transport makes on a 401 only where oauthDestinations.ts allows, held to
   * the limits of oauthRequestLimits.ts — and only to refresh tokens the user signed in for: with
   * no refresh token there is nothing the background may do (no discovery, no registration), so
   * the server needs sign-in at once (NeedsSignInError) and not a request is sent. One guard per
   * transport: a breach fails its later OAuth requests too.
   */
  transportOptions(base: FetchLike = fetch): AuthTransportOptions {
    const guard = new OAuthRequestGuard(this.config.name, this.requestTimeoutMs);
    const oauth = oauthFetch(this.destinations);
    const background: FetchLike = async (url, init) => {
      if (!(await this.provider.canRefresh())) throw new NeedsSignInError(this.config.name);
      return oauth(url, init);
    };
    return {
      authProvider: this.provider,
      fetch: this.challenges.observe(this.withHeaders(guard.oauthOnly(base, background))),
    };
  }

  /** A sign-in's fetch: every request is an OAuth one, each held to the limits (one guard per sign-in) and to oauthDestinations.ts. */
  private signInFetch(): FetchLike {
    const guard = new OAuthRequestGuard(this.config.name, this.requestTimeoutMs);
    return this.challenges.observe(this.withHeaders(guard.all(oauthFetch(this.destinations))));
  }

  /** `base` with the configured headers on requests to the server's own origin, and only there. */
  private withHeaders(base: FetchLike): FetchLike {
    const origin = new URL(this.config.url).origin;
    const headers = this.config.headers;
    return (url, init) => {
      if (Object.keys(headers).length === 0 || new URL(String(url)).origin !== origin) return base(url, init);
      const merged = new Headers(init?.headers);
      for (const [k, v] of Object.entries(headers)) merged.set(k, v);
      return base(url, { ...init, headers: merged });
    };
  }

  /** Signs in (one at a time): the browser opens, the user agrees, tokens are stored. Rejects with the reason. */
  signIn(signal?: AbortSignal): Promise<void> {
    this.running ??= this.runSignIn(signal).finally(() => (this.running = undefined));
    return this.running;
  }

  /** Forgets the tokens and the registered client. */
  async signOut(): Promise<void> {
    await this.env.store.write(this.key, undefined);
  }

  private async runSignIn(signal?: AbortSignal): Promise<void> {
    const door = this.env.door;
    if (!door) throw new Error(`${this.config.name}: signing in is not possible here (no browser to open)`);
    const loop = await LoopbackRedirect.open(this.config.name);
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const redirectUri = door.externalRedirect ? await door.externalRedirect(loop.uri) : loop.uri;
      const state = randomBytes(16).toString('base64url');
      // Listening before the page opens: a browser (or a test) may come back at once.
      const code = loop.waitForCode(state, this.env.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS, stop.signal);
      code.catch(() => undefined);
      this.provider.beginSignIn({ redirectUri, state, open: (url) => door.openAuthorization(this.config.name, url) });
      const last = this.challenges.last;
      const scope = this.provider.wantedScope ?? last?.scope;
      const options = {
        serverUrl: this.config.url,
        ...(scope && { scope }),
        ...(last?.resourceMetadataUrl && { resourceMetadataUrl: last.resourceMetadataUrl }),
      };
      const fetchFn = this.signInFetch();
      let result = await auth(this.provider, { ...options, fetchFn });
      if (result === 'REDIRECT')
        result = await auth(this.provider, { ...options, authorizationCode: await code, fetchFn });
      if (result !== 'AUTHORIZED') throw new Error(`${this.config.name}: the sign-in did not complete`);
      this.provider.wantedScope = undefined;
    } finally {
      stop.abort();
      signal?.removeEventListener('abort', onAbort);
      this.provider.endSignIn();
      loop.close();
    }
  }
}
