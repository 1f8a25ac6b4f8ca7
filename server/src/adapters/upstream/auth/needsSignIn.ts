/**
 * Thrown where the OAuth flow would need the user's browser and no sign-in is under way: the
 * server has no usable token (never signed in, the refresh token was refused, or it asks for
 * more scopes). The connection shows the server as `needs-sign-in`; calls answer "sign in to
 * <server> first". Its message carries no token, no URL and no authorization server reply.
 */
export class NeedsSignInError extends Error {
  constructor(
    readonly server: string,
    /** The scopes the server asked for, when it named them. */
    readonly scope?: string,
  ) {
    super(`sign in to ${server} first`);
    this.name = 'NeedsSignInError';
  }
}

/** True for a NeedsSignInError, also when the SDK passed it on wrapped in another error's `cause`. */
export function isNeedsSignIn(error: unknown): error is NeedsSignInError {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof NeedsSignInError) return true;
  return false;
}
