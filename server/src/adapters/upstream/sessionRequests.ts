/**
 * What a connection asks of its ready session besides tool calls: prompts, resources,
 * completions, subscriptions, the log level and roots changes. Each request has the list
 * timeout and fails as a call does (named, classified, a dead server probed: connection.ts);
 * the log level and subscriptions are kept to be sent again after a reconnect (followUps.ts).
 */
import {
  CompleteResultSchema,
  EmptyResultSchema,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type LoggingLevel,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamFollowUps } from './followUps';
import type { Session } from './session';
import type { UpstreamCallError } from './types';

/** How the requests reach the connection's session. */
export interface SessionAccess {
  requestTimeoutMs: number;
  /** The ready session; throws a not-ready error otherwise. */
  ready(): Session;
  /** The ready session, if there is one. */
  current(): Session | undefined;
  /** A failed request as the error callers get (see connection.ts callFailed). */
  failed(session: Session, error: unknown, what: string): UpstreamCallError;
}

export class SessionRequests {
  constructor(
    private readonly access: SessionAccess,
    readonly followUps: UpstreamFollowUps,
  ) {}

  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.ask(`prompt ${name}`, (client, timeout) => client.getPrompt({ name, arguments: args }, { timeout }));
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.ask(`resource ${uri}`, (client, timeout) => client.readResource({ uri }, { timeout }));
  }

  complete(params: CompleteRequest['params']): Promise<CompleteResult> {
    return this.ask('completion', (client, timeout) =>
      client.request({ method: 'completion/complete', params }, CompleteResultSchema, { timeout }),
    );
  }

  /** Subscribes (once per URI, kept across reconnects) to a resource's updates. */
  async subscribe(uri: string): Promise<void> {
    await this.ask(`subscribe ${uri}`, (client, timeout) =>
      client.request({ method: 'resources/subscribe', params: { uri } }, EmptyResultSchema, { timeout }),
    );
    this.followUps.subscriptions.add(uri);
  }

  async unsubscribe(uri: string): Promise<void> {
    this.followUps.subscriptions.delete(uri);
    await this.ask(`unsubscribe ${uri}`, (client, timeout) =>
      client.request({ method: 'resources/unsubscribe', params: { uri } }, EmptyResultSchema, { timeout }),
    );
  }

  /** Sets the server's log level now, when it logs, and again after every reconnect. */
  setLogLevel(level: LoggingLevel): void {
    this.followUps.logLevel = level;
    const session = this.access.current();
    if (session) this.followUps.sendLogLevel(session.client);
  }

  /** Tells the server the roots changed (it asks for them again with roots/list). */
  rootsChanged(): void {
    const session = this.access.current();
    if (session) this.followUps.sendRootsChanged(session.client);
  }

  private async ask<T>(
    what: string,
    request: (client: Session['client'], timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    const session = this.access.ready();
    try {
      return await request(session.client, this.access.requestTimeoutMs);
    } catch (error) {
      throw this.access.failed(session, error, what);
    }
  }
}
