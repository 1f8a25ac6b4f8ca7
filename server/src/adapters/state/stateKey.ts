/**
 * The key the operator gives MCP Lens to seal upstream sign-in tokens in the state database:
 * 32 bytes, as 64 hex digits or base64, in MCP_LENS_STATE_KEY or in the file
 * MCP_LENS_STATE_KEY_FILE names (a Kubernetes Secret mounted as a file). Sealed with
 * AES-256-GCM, a fresh 12-byte nonce per record, and the record's key as associated data, so a
 * sealed value moved to another row does not open. The key is never logged and never in an
 * error; its id (the first 8 hex digits of its sha256) is stored beside each record so a
 * record sealed under another key is told apart from a damaged one.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface StateKey {
  readonly id: string;
  seal(plain: string, recordKey: string): Buffer;
  /** The plain text, or undefined when the record was not sealed by this key or was damaged. */
  open(sealed: Buffer, recordKey: string): string | undefined;
}

/** The operator's key, or undefined when none is given; throws (without the value) when one is given badly. */
export function stateKeyFromEnv(env: NodeJS.ProcessEnv = process.env): StateKey | undefined {
  const file = env.MCP_LENS_STATE_KEY_FILE?.trim();
  let text = env.MCP_LENS_STATE_KEY?.trim();
  let from = 'MCP_LENS_STATE_KEY';
  if (!text && file) {
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch (err) {
      throw new Error(`cannot read the state key file ${file} (MCP_LENS_STATE_KEY_FILE): ${(err as Error).message}`);
    }
    from = `the state key file ${file}`;
  }
  if (!text) return undefined;
  const bytes = decodeKey(text);
  if (!bytes)
    throw new Error(
      `${from} is not a 32-byte key: give 64 hex digits or 44 characters of base64 (e.g. \`openssl rand -hex 32\`)`,
    );
  return sealingKey(bytes);
}

function decodeKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text)) {
    const b = Buffer.from(text, 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

export function sealingKey(key: Buffer): StateKey {
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return {
    id,
    seal(plain, recordKey) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(recordKey, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, cipher.getAuthTag(), body]);
    },
    open(sealed, recordKey) {
      if (sealed.length < NONCE_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
        decipher.setAAD(Buffer.from(recordKey, 'utf8'));
        decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        return undefined;
      }
    },
  };
}
