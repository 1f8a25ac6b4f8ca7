/**
 * The one facade the front doors use: the MCP gateway, the LSP connection, the CLI and the
 * dashboard's HTTP routes all drive the core through this interface and nothing else, so
 * none of them knows which other front door is in use. The two that own a Lens (the sidecar
 * session and the CLI) also steer it through `LensControl` (lensControl.ts).
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { IndexStatus, LearnedSearchView, SearchResponse, ServerStatus, UsageStats } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogPrompt, CatalogResource, CatalogTool } from '../core/catalog';
import type { CallProgress } from '../adapters/upstream/types';

export interface SearchRequest {
  query: string;
  keywords?: string[];
  server?: string;
  limit?: number;
  /** Gateway session, so usage prediction can use the session's history. */
  sessionId?: string;
}

/**
 * How a front door calls. There is no timeout here on purpose: the per-call timeout is the
 * mcpLens.callTimeoutSeconds setting, decided in one place (app/toolCalls.ts); a caller that
 * must stop sooner (a client's cancel, run_code's wall time) aborts `signal`.
 */
export interface CallOptions {
  signal?: AbortSignal;
  /** Upstream progress, passed through to the caller. */
  onProgress?: (progress: CallProgress) => void;
  sessionId?: string;
  /** Which front door made the call (recorded in usage, never the arguments). */
  origin?: 'gateway' | 'run_code' | 'dashboard' | 'palette' | 'cli';
}

export type LensChange = 'servers' | 'tools' | 'index' | 'usage' | 'settings';

export interface Disposable {
  dispose(): void;
}

export interface Lens {
  readonly workspaceFolder: string;
  settings(): McpLensSettings;
  /** Every configured server, including disabled and not-yet-approved ones. */
  servers(): ServerStatus[];
  /** Tools that pass include/exclude; excluded tools are not here at all. */
  tools(): CatalogTool[];
  /** Resolves a client-safe name; undefined for unknown or excluded tools. */
  findTool(name: string): CatalogTool | undefined;
  search(request: SearchRequest): Promise<SearchResponse>;
  /**
   * Calls an upstream tool by client-safe name. Unknown or excluded names, invalid
   * arguments, upstream errors and timeouts all come back as `isError` results.
   */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  prompts(): CatalogPrompt[];
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  resources(): CatalogResource[];
  readResource(uri: string): Promise<ReadResourceResult>;
  indexStatus(): IndexStatus;
  usageStats(): UsageStats | undefined;
  /** Client-safe names the session likely needs next (predictive exposure); absent without usage learning. */
  predictedTools?(sessionId: string): string[];
  /** Deletes every recorded call (and what search learned from them). */
  clearUsage?(): Promise<void>;
  /** What search learned from this workspace's use, per tool (mcpLens.search.learnFromUsage); absent where it is not kept. */
  learnedSearch?(): LearnedSearchView;
  /** Forgets everything search learned, in memory and on disk. */
  forgetLearnedSearch?(): Promise<void>;
  restartServer(name: string): Promise<void>;
  /**
   * Signs in to a remote server that needs an account (OAuth): the front door shows the
   * authorization page; resolves once signed in and reconnecting, rejects with the reason.
   */
  signIn(name: string, signal?: AbortSignal): Promise<void>;
  /** Forgets a remote server's tokens. */
  signOut(name: string): Promise<void>;
  reindex(): Promise<void>;
  updateSettings(settings: McpLensSettings): Promise<void>;
  onDidChange(listener: (change: LensChange) => void): Disposable;
  close(): Promise<void>;
}
