/**
 * The MCP protocol revisions MCP Lens speaks, and the names the 2026-07-28 revision gives its
 * per-request envelope, results and errors. Revisions up to 2025-11-25 ("legacy") open a session
 * with `initialize`; from 2026-07-28 ("modern") every request carries its revision, the client's
 * capabilities and identity in `params._meta`, and there is no session.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** The modern revisions, newest first. */
export const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];
/** The legacy revisions the SDK negotiates in `initialize`, newest first. */
export const LEGACY_REVISIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
/** The newest legacy revision: what a modern request is served as behind the scenes. */
export const NEWEST_LEGACY_REVISION = LATEST_PROTOCOL_VERSION;

export const isModernRevision = (v: unknown): v is string => typeof v === 'string' && MODERN_REVISIONS.includes(v);
export const isLegacyRevision = (v: unknown): v is string => typeof v === 'string' && LEGACY_REVISIONS.includes(v);

/** The reserved `_meta` keys of the envelope and of results and notifications. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/**
 * MCP Lens's own `_meta` key on a request an upstream asked back in an input-required round: the
 * key the upstream gave it there, so a 2026-07-28 client is asked under the same key. Taken off
 * before anything reaches a client.
 */
export const INPUT_KEY_META = 'dev.mcp-lens/inputKey';

/** The error codes the 2026-07-28 revision defines (its reserved sub-range -32020..-32099). */
export const MODERN_ERROR = {
  headerMismatch: -32020,
  missingClientCapability: -32021,
  unsupportedVersion: -32022,
} as const;

/**
 * Methods the modern revision removed: a modern request for one is answered like any unknown
 * method (HTTP 404, -32601). Their jobs moved into the envelope (`initialize`, `logging/setLevel`)
 * or into `subscriptions/listen` (`resources/subscribe`, `resources/unsubscribe`), or are gone
 * (`ping`: every request shows the server is there).
 */
export const REMOVED_IN_MODERN: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/initialized',
  'notifications/roots/list_changed',
]);

/** The only requests a modern server may answer with an input-required result. */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Results that carry caching hints (`ttlMs`, `cacheScope`) in the modern revision. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
