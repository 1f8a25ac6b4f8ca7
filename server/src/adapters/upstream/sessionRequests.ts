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
import type { CallFailures } from './callFailures';
import type { ConnectionState } from './connectionState';
import type { UpstreamFollowUps } from './followUps';
import type { Session } from './session';
import type { UpstreamCaller } from './types';
import { callerMeta, clientFor } from './dualEra';

/** How the requests reach the connection's session. */
export interface RequestParts {
  requestTimeoutMs: number;
  /** The session while the server is ready. */
  state: Pick<ConnectionState, 'session' | 'readySession'>;
  /** A failed request as the error callers get (callFailures.ts). */
  failures: Pick<CallFailures, 'request'>;
  /** Runs a request for `caller`: what the server asks back meanwhile is theirs (inFlightCalls.ts). */
  track<T>(caller: UpstreamCaller | undefined, request: () => Promise<T>): Promise<T>;
}

export class SessionRequests {
  constructor(
    private readonly access: RequestParts,
    readonly followUps: UpstreamFollowUps,
  ) {}

  /** `caller`: the client the prompt is for (it answers what the server asks back; dualEra.ts routes by it). */
  getPrompt(name: string, args: Record<string, string>, caller?: UpstreamCaller): Promise<GetPromptResult> {
    return this.ask(
      `prompt ${name}`,
      (client, timeout, meta) => client.getPrompt({ name, arguments: args, ...(meta && { _meta: meta }) }, { timeout }),
      { caller, kind: 'prompts', name },
    );
  }

  readResource(uri: string, caller?: UpstreamCaller): Promise<ReadResourceResult> {
    return this.ask(
      `resource ${uri}`,
      (client, timeout, meta) => client.readResource({ uri, ...(meta && { _meta: meta }) }, { timeout }),
      { caller },
    );
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
    const session = this.access.state.session();
    if (session) this.followUps.sendLogLevel(session.client);
  }

  /** Tells the server the roots changed (it asks for them again with roots/list). */
  rootsChanged(): void {
    const session = this.access.state.session();
    if (session) this.followUps.sendRootsChanged(session.client);
  }

  private async ask<T>(
    what: string,
    request: (client: Session['client'], timeoutMs: number, meta?: Record<string, unknown>) => Promise<T>,
    on: { caller?: UpstreamCaller | undefined; kind?: 'prompts'; name?: string } = {},
  ): Promise<T> {
    const session = this.access.state.readySession();
    const timeoutMs = this.access.requestTimeoutMs;
    const client = on.kind && on.name ? clientFor(session, on.kind, on.name, on.caller) : session.client;
    const meta = client !== session.client || session.era === 'modern' ? callerMeta(on.caller) : undefined;
    try {
      return await this.access.track(on.caller, () => request(client, timeoutMs, meta));
    } catch (error) {
      throw this.access.failures.request(session, error, timeoutMs, what);
    }
  }
}
