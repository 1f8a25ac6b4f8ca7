/**
 * What a person reads beside a server that needs sign-in, in List Servers and on the dashboard.
 * The server's reason ("needs sign-in (the server asks for an account; sign in with …)") is
 * written for the agent and the terminal; beside a row whose action is Sign in it would repeat
 * the state and cut the row. A failed sign-in keeps its cause.
 */

/** How the server's reason starts its cause when a sign-in was tried and failed. */
export const SIGN_IN_FAILED = 'sign-in failed: ';

/** The one line beside a needs-sign-in row, from the server's reason for the state. */
export function signInLine(reason: string | undefined): string {
  const at = reason?.indexOf(SIGN_IN_FAILED) ?? -1;
  if (reason !== undefined && at >= 0)
    return `Sign-in failed: ${reason.slice(at + SIGN_IN_FAILED.length).replace(/\)$/, '')}`;
  return 'The server asks for an account; signing in opens its page in your browser.';
}
