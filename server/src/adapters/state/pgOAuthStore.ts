/**
 * Upstream sign-in records (the OAuthStore contract, upstream/auth/types.ts) in the state
 * database, sealed with the operator's key (stateKey.ts): a replica reads what another signed
 * in, the database never holds a token in the clear. A record sealed under another key reads
 * as nothing (signing in again replaces it) and is said once in the log, by server key only.
 */
import type { Logger } from '../../core/logger';
import { parseStoredOAuth } from '../upstream/auth/oauthStore';
import type { OAuthStore, StoredOAuth } from '../upstream/auth/types';
import type { StateDatabase } from './stateDatabase';
import type { StateKey } from './stateKey';

export class PgOAuthStore implements OAuthStore {
  private readonly warned = new Set<string>();

  constructor(
    private readonly db: StateDatabase,
    private readonly key: StateKey,
    private readonly log: Logger,
  ) {}

  async read(key: string): Promise<StoredOAuth | undefined> {
    const rows = await this.db.query<{ sealed: Buffer; key_id: string }>(
      'reading a sign-in record',
      'SELECT sealed, key_id FROM mcp_lens_oauth WHERE key = $1',
      [key],
    );
    const row = rows[0];
    if (!row) return undefined;
    const plain = row.key_id === this.key.id ? this.key.open(row.sealed, key) : undefined;
    if (plain === undefined) {
      if (!this.warned.has(key))
        this.log.warn(
          `state database ${this.db.name}: the sign-in record ${key} was sealed with another state key or is damaged; sign in again`,
        );
      this.warned.add(key);
      return undefined;
    }
    try {
      return parseStoredOAuth(JSON.parse(plain));
    } catch {
      return undefined;
    }
  }

  async write(key: string, value: StoredOAuth | undefined): Promise<void> {
    if (value === undefined) {
      await this.db.query('forgetting a sign-in record', 'DELETE FROM mcp_lens_oauth WHERE key = $1', [key]);
      return;
    }
    await this.db.query(
      'saving a sign-in record',
      `INSERT INTO mcp_lens_oauth (key, sealed, key_id, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (key) DO UPDATE SET sealed = EXCLUDED.sealed, key_id = EXCLUDED.key_id, updated_at = now()`,
      [key, this.key.seal(JSON.stringify(value), key), this.key.id],
    );
  }
}
