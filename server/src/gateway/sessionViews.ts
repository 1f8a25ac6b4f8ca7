/**
 * The MCP Apps views one session's host read (`ui://` resources): a view's tools/call comes from
 * one of their servers, so that is where a call by a server's own tool name is looked up
 * (core/hostCalls.ts). Bounded: a host renders a handful of views, an agent may read many URIs.
 */
import { isUiUri } from '../core/mcpApps';

/** Views remembered per session; the oldest go first. */
const MAX_VIEWS = 64;

export class SessionViews {
  private readonly seen = new Set<string>();

  /** A resource this session read; only `ui://` ones are views. */
  read(uri: string): void {
    if (!isUiUri(uri)) return;
    this.seen.delete(uri);
    this.seen.add(uri);
    if (this.seen.size > MAX_VIEWS) this.seen.delete(this.seen.values().next().value!);
  }

  uris(): string[] {
    return [...this.seen];
  }
}
