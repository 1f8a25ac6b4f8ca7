/**
 * What the server last said about authorization: the `WWW-Authenticate` challenge of its latest
 * 401 or 403 (the scope it asks for, where its protected-resource metadata is). The transport
 * reads them too, but keeps them to itself; a sign-in started later by the user needs them to
 * ask for the right scopes (a step-up's included).
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface Challenge {
  scope?: string;
  resourceMetadataUrl?: URL;
  error?: string;
}

export class ChallengeLog {
  last: Challenge | undefined;

  /** `fetch` that notes the challenge of every 401 and 403 answered by the server. */
  observe(base: FetchLike): FetchLike {
    return async (url, init) => {
      const response = await base(url, init);
      if (response.status === 401 || response.status === 403) {
        const { scope, resourceMetadataUrl, error } = extractWWWAuthenticateParams(response);
        // A 403 without insufficient_scope is not about authorization: the last challenge stands.
        if (response.status === 401 || error === 'insufficient_scope')
          this.last = {
            ...(scope !== undefined && { scope }),
            ...(resourceMetadataUrl && { resourceMetadataUrl }),
            ...(error !== undefined && { error }),
          };
      }
      return response;
    };
  }
}
