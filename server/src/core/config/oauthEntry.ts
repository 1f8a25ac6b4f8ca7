/**
 * `oauth` on an http or sse server entry: a client registered with the server's authorization
 * server beforehand, for servers that offer no dynamic client registration:
 *
 *     "oauth": { "clientId": "my-app", "clientSecret": "${input:app-secret}", "scopes": ["read"] }
 *
 * Without it MCP Lens registers itself (dynamic client registration) or uses a Client ID Metadata
 * Document when the authorization server supports one and `clientId` is its https URL. The secret
 * is meant to come through `${input:…}` or `${env:…}`: one written in the file is a warning.
 */
import { isRecord, type EntryReader } from './entryReader';
import type { OAuthClientConfig, ShownRemote } from './types';

const KEYS = ['clientId', 'clientSecret', 'scopes'];

/** The entry's `oauth`, or undefined when absent or wrong (the problem is reported on `r`). */
export function readOAuth(
  r: EntryReader,
): { config: OAuthClientConfig; shown: NonNullable<ShownRemote['oauth']> } | undefined {
  const raw = r.raw.oauth;
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    r.report('error', ['oauth'], '"oauth" must be an object with "clientId"');
    return undefined;
  }
  for (const key of Object.keys(raw))
    if (!KEYS.includes(key))
      r.report(
        'warning',
        ['oauth', key],
        `unknown key "${key}" in "oauth" (expected "clientId", "clientSecret" or "scopes"); ignored`,
      );
  const id = raw.clientId;
  if (typeof id !== 'string' || id.trim() === '') {
    r.report('error', ['oauth', 'clientId'], '"oauth.clientId" must be a non-empty string');
    return undefined;
  }
  const clientId = r.subst(['oauth', 'clientId'], id);
  const config: OAuthClientConfig = { clientId: clientId.value };
  const shown: NonNullable<ShownRemote['oauth']> = { clientId: clientId.shown, hasSecret: false };
  const secret = raw.clientSecret;
  if (secret !== undefined && secret !== null) {
    if (typeof secret !== 'string') {
      r.report('error', ['oauth', 'clientSecret'], '"oauth.clientSecret" must be a string');
      return undefined;
    }
    const field = r.subst(['oauth', 'clientSecret'], secret);
    if (!field.secret && field.value !== '')
      r.report(
        'warning',
        ['oauth', 'clientSecret'],
        '"oauth.clientSecret" is written in the file; use ${input:…} or ${env:…} so the secret stays out of it',
      );
    if (field.value !== '') {
      config.clientSecret = field.value;
      shown.hasSecret = true;
    }
  }
  const scopes = raw.scopes;
  if (scopes !== undefined && scopes !== null) {
    if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || s.trim() === '' || /\s/.test(s))) {
      r.report('error', ['oauth', 'scopes'], '"oauth.scopes" must be an array of scope names (strings without spaces)');
      return undefined;
    }
    if (scopes.length) config.scopes = shown.scopes = [...(scopes as string[])];
  }
  return { config, shown };
}
