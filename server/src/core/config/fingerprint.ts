/**
 * The approval fingerprint of a server definition. It covers everything that decides what
 * runs, with what, and where it connects (env and header VALUES included: a changed token or
 * endpoint needs a fresh approval). Being a hash of secrets, it is shown only as an id;
 * `describeServer` (describe.ts) is what people read.
 */
import { createHash } from 'node:crypto';

/**
 * The parts of a config that the fingerprint covers; name and source are not among them, except
 * `folder`: in a multi-root workspace, the path of the folder that declared the server, so an
 * approval never carries over to another folder's same definition (folders.ts).
 */
export type FingerprintInput = (
  | {
      type: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string | undefined;
      removeEnv?: string[] | undefined;
    }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string>; oauth?: OAuthFingerprint | undefined }
) & { folder?: string | undefined };

/** The OAuth client a remote server signs in with: a changed client or secret needs a fresh approval. */
export interface OAuthFingerprint {
  clientId: string;
  clientSecret?: string | undefined;
  scopes?: string[] | undefined;
}

function sortedEntries(record: Record<string, string>): [string, string][] {
  return Object.keys(record)
    .sort()
    .map((k) => [k, record[k]]);
}

/** sha256 hex (first 16 chars) over a canonical JSON array; key order never matters. */
export function fingerprintServer(cfg: FingerprintInput): string {
  const canonical: unknown[] =
    cfg.type === 'stdio'
      ? ['stdio', cfg.command, cfg.args, sortedEntries(cfg.env), cfg.cwd ?? null, [...(cfg.removeEnv ?? [])].sort()]
      : [cfg.type, cfg.url, sortedEntries(cfg.headers)];
  // Absent without `oauth`, so the fingerprints (and approvals) of other remote servers stay as they were.
  if (cfg.type !== 'stdio' && cfg.oauth)
    canonical.push(['oauth', cfg.oauth.clientId, cfg.oauth.clientSecret ?? null, cfg.oauth.scopes ?? null]);
  // Absent outside multi-root workspaces, so those fingerprints (and approvals) stay as they were.
  if (cfg.folder !== undefined) canonical.push(['folder', cfg.folder]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}
