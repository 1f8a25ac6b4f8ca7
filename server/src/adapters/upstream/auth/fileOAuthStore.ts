/**
 * The CLI's OAuth records: one JSON file under the user's config folder, never in a workspace:
 * `$MCP_LENS_OAUTH_FILE`, else `$XDG_CONFIG_HOME/mcp-lens/oauth.json`, else
 * `~/.config/mcp-lens/oauth.json`. The folder is 0700 and the file 0600, written whole (temp file
 * and rename) and never through a symbolic link (privateFiles.ts); a file that is a link, someone
 * else's or readable by others is refused, and reads as empty. Each write reads the file afresh,
 * so a `serve` and a `login` in two terminals keep each other's records.
 */
import { mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrivateDir, readPrivateFile, writePrivateFile } from '../../privateFiles';
import type { Logger } from '../../../core/logger';
import { parseStoredOAuth } from './oauthStore';
import type { OAuthStore, StoredOAuth } from './types';

export function oauthFilePath(
  env: Record<string, string | undefined> = process.env,
  userHome: string = os.homedir(),
): string {
  if (env.MCP_LENS_OAUTH_FILE) return path.resolve(env.MCP_LENS_OAUTH_FILE);
  const configHome =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(userHome, '.config');
  return path.join(configHome, 'mcp-lens', 'oauth.json');
}

export class FileOAuthStore implements OAuthStore {
  private warned = false;

  constructor(
    readonly file: string,
    private readonly log: Logger,
  ) {}

  async read(key: string): Promise<StoredOAuth | undefined> {
    return this.readAll()[key];
  }

  async write(key: string, value: StoredOAuth | undefined): Promise<void> {
    const all = this.readAll();
    if (value === undefined) delete all[key];
    else all[key] = value;
    const dir = path.dirname(this.file);
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    ensurePrivateDir(dir);
    writePrivateFile(this.file, JSON.stringify({ version: 1, records: all }, null, 2) + '\n');
  }

  private readAll(): Record<string, StoredOAuth> {
    const read = readPrivateFile(this.file);
    if ('missing' in read) return {};
    if ('refused' in read) {
      if (!this.warned) this.log.warn(`not using the sign-in tokens in ${this.file}: ${read.refused}`);
      this.warned = true;
      return {};
    }
    let raw: unknown;
    try {
      raw = JSON.parse(read.text);
    } catch {
      return {}; // damaged: signing in again rewrites it
    }
    const records = (raw as { records?: unknown } | null)?.records;
    const out: Record<string, StoredOAuth> = {};
    if (records && typeof records === 'object')
      for (const [k, v] of Object.entries(records)) {
        const parsed = parseStoredOAuth(v);
        if (parsed) out[k] = parsed;
      }
    return out;
  }
}
