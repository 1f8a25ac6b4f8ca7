/**
 * Whom a downstream session acts for. Everything an upstream keeps per client — the roots it was
 * given, the requests it sends back (sampling, elicitation), its log level, subscriptions, the
 * capabilities declared to it — belongs to exactly one principal: a stdio server is started once
 * per principal that uses it, and what it asks goes only to that principal's sessions
 * (ARCHITECTURE.md "What upstreams ask back", SECURITY.md "Whom a session acts for").
 *
 * The front door decides a session's principal; nothing below it derives one.
 */

/** A person signed in to a shared gateway, as their identity provider named them. */
export interface PrincipalPerson {
  /** The identity provider (an OpenID issuer URL). */
  issuer: string;
  /** The person's stable id at that issuer (`sub`). */
  subject: string;
  /** What to call them in messages (untrusted text: escaped where shown). */
  name?: string;
}

export interface Principal {
  /** Stable for the principal's life; upstream connections are keyed by it. Never a secret. */
  readonly id: string;
  /**
   * `workspace`: the user of this workspace — the editor's sessions, `serve`'s stdio client, the
   * dashboard and the terminal; it owns the workspace's own upstream connections (the catalog's).
   * `client`: one MCP client session of `serve --http`. `person`: a signed-in person.
   */
  readonly kind: 'workspace' | 'client' | 'person';
  /** Names it in errors and logs ("client session 1a2b3c4d"); never a token. */
  readonly label: string;
  readonly person?: PrincipalPerson;
}

/** The user of this workspace (see Principal.kind). */
export const WORKSPACE_PRINCIPAL: Principal = Object.freeze({
  id: 'workspace',
  kind: 'workspace',
  label: 'this workspace',
});

/** One MCP client session as its own principal; `id` is unique to the session (never its token). */
export function clientPrincipal(id: string): Principal {
  return Object.freeze({ id: `client:${id}`, kind: 'client', label: `client session ${id.slice(0, 8)}` });
}

/**
 * A signed-in person: one principal for all their sessions, whatever client they use. The id is
 * the issuer and subject (an OpenID subject is unique only at its issuer), never a token.
 */
export function personPrincipal(person: PrincipalPerson): Principal {
  const shown = person.name ?? person.subject;
  return Object.freeze({
    id: `person:${person.issuer}#${person.subject}`,
    kind: 'person',
    label: `${shown.slice(0, 64)} (signed in)`,
    person: Object.freeze({ ...person }),
  });
}

export function isWorkspace(principal: Principal): boolean {
  return principal.id === WORKSPACE_PRINCIPAL.id;
}
