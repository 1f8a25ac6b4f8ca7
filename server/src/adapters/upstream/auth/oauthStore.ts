/**
 * Keys of OAuth records, the in-memory store, and the check of a record read from outside. The
 * contract (OAuthStore) is in types.ts.
 */
import { createHash } from 'node:crypto';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthStore, StoredOAuth } from './types';

export type { OAuthStore, StoredOAuth };

/**
 * The record's key: the server's name and URL, hashed (a URL may carry a secret in its query).
 * A changed URL is a different key, so tokens never follow a definition to another server.
 */
export function oauthStoreKey(server: string, url: string): string {
  return `oauth.${createHash('sha256').update(`${server}\0${url}`).digest('hex').slice(0, 32)}`;
}

/** A store that lives as long as the process (tests, the conformance client, one-shot runs). */
export class MemoryOAuthStore implements OAuthStore {
  private readonly records = new Map<string, string>();

  async read(key: string): Promise<StoredOAuth | undefined> {
    const text = this.records.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as StoredOAuth);
  }

  async write(key: string, value: StoredOAuth | undefined): Promise<void> {
    if (value === undefined) this.records.delete(key);
    else this.records.set(key, JSON.stringify(value));
  }
}

/** What a store read from outside (a file, the extension) may hold: anything else reads as nothing. */
export function parseStoredOAuth(raw: unknown): StoredOAuth | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const out: StoredOAuth = {};
  if (r.client && typeof r.client === 'object' && typeof (r.client as { client_id?: unknown }).client_id === 'string')
    out.client = r.client as OAuthClientInformationMixed;
  if (
    r.tokens &&
    typeof r.tokens === 'object' &&
    typeof (r.tokens as { access_token?: unknown }).access_token === 'string'
  )
    out.tokens = r.tokens as OAuthTokens;
  if (typeof r.savedAt === 'number') out.savedAt = r.savedAt;
  return out;
}
