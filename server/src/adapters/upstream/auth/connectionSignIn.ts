/**
 * A remote server's sign-in as its connection lives it (connection.ts): signing in and out, each
 * followed by a reconnect with the tokens there are then, and what happens when the server
 * refuses the tokens it has — the `needs-sign-in` state, or, where sign-ins may run unasked
 * (OAuthEnvironment.autoSignIn), a sign-in started at once, a bounded number of times in a row
 * (serverAuth.ts AUTO_SIGN_INS).
 */
import type { ServerConfig, RemoteServerConfig } from '../../../core/config/types';
import type { Logger } from '../../../core/logger';
import { errorMessage } from '../../../core/errorMessage';
import { SIGN_IN_FAILED } from '../../../../../protocol/signInText';
import { UpstreamCallError } from '../types';
import { OAuthDestinationError } from './oauthDestinations';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, ServerAuth } from './serverAuth';
import type { OAuthEnvironment } from './types';

/** What the sign-in changes on its connection. */
export interface SignInParts {
  log: Logger;
  /** The refused session is closed… */
  slot: { close(): Promise<void> };
  /** …and the server's lists cleared (find_tools answers from its last known catalog). */
  lists: { clear(): void };
  /** The state the server shows now, with its reason. */
  state: {
    show(state: 'starting' | 'needs-sign-in', reason: string): void;
    /** Whether the server is connected and listed (a sign-in that fails then leaves it as it is). */
    readonly ready: boolean;
  };
  /** Connects again, with the tokens there are now. */
  connector: { reconnect(): Promise<void> };
}

export class ConnectionSignIn {
  readonly auth: ServerAuth;

  private constructor(
    private readonly config: RemoteServerConfig,
    private readonly env: OAuthEnvironment,
    connectTimeoutMs: number,
    private readonly host: SignInParts,
  ) {
    this.auth = new ServerAuth(config, env, connectTimeoutMs);
  }

  /**
   * A remote server's sign-in, where sign-ins are possible and its headers do not set
   * Authorization themselves. `connectTimeoutMs` also bounds each of its OAuth requests.
   */
  static for(
    config: ServerConfig,
    env: OAuthEnvironment | undefined,
    connectTimeoutMs: number,
    host: SignInParts,
  ): ConnectionSignIn | undefined {
    if (config.type === 'stdio' || !env) return undefined;
    if (Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    return new ConnectionSignIn(config, env, connectTimeoutMs, host);
  }

  /** How long a call refused for more access waits for the unasked sign-in it caused, and the reconnect after it. */
  waitMs(connectTimeoutMs: number): number {
    return connectTimeoutMs + (this.env.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS);
  }

  /**
   * Signs in (the browser opens through the front door), then connects with the new tokens. A
   * sign-in that fails leaves a server that is not connected needing sign-in, its status saying
   * why (and naming every address its OAuth requests were refused).
   */
  async signIn(signal?: AbortSignal): Promise<void> {
    try {
      await this.auth.signIn(signal);
    } catch (error) {
      if (!this.host.state.ready)
        this.waitForUser(
          error instanceof OAuthDestinationError ? 'sign-in stopped' : `${SIGN_IN_FAILED}${errorMessage(error)}`,
        );
      throw error;
    }
    await this.host.connector.reconnect();
  }

  /** Forgets the tokens and the registered client; the server then needs signing in again. */
  async signOut(): Promise<void> {
    await this.auth.signOut();
    await this.host.connector.reconnect();
  }

  /** The server wants a sign-in no background flow can give (expired and unrefreshable tokens, or more scopes). */
  refused(): void {
    void this.host.slot.close();
    this.host.lists.clear();
    if (this.auth.takeAutoSignIn()) {
      this.host.state.show('starting', 'signing in');
      // A failure shows in the status (signIn says why).
      void this.signIn().catch(() => undefined);
      return;
    }
    this.waitForUser();
  }

  /** A call the server refused until the user signs in; `current`: on the connection's session now (not one already replaced). */
  refusedCall(current: boolean, tool: string): UpstreamCallError {
    if (current) this.refused();
    return new UpstreamCallError('needs-sign-in', this.config.name, `sign in to ${this.config.name} first`, tool);
  }

  private waitForUser(why?: string): void {
    const refused = this.auth.refusedText();
    const reason = `needs sign-in (${why ?? `the server asks for an account; ${this.auth.hint}`}${refused ? `; ${refused}` : ''})`;
    this.host.state.show('needs-sign-in', reason);
    this.host.log.warn(`[${this.config.name}] ${reason}`);
  }
}
