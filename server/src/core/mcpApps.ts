/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, spec 2026-01-26) as MCP Lens passes them
 * through: what a tool's `_meta` says about its view, and the `ui://` URIs a host reads views by.
 *
 * A host reads a view by exactly the `ui://` URI the tool names, so these URIs keep their own
 * spelling behind MCP Lens (not `mcp-lens://…`). Only when two servers use the same one is it
 * rewritten, for every server that uses it, to `ui://mcp-lens/<server>/<the rest>`: the tools'
 * `_meta` name the rewritten URI, so each host reads its own server's view. The choice depends
 * only on the set of (server, URI) pairs, never on their order.
 */
import { shortHash } from './toolNames';

/** The extension's key in `capabilities.extensions`, for hosts and servers alike. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** What a view's resource is served as. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';
const UI_SCHEME = 'ui://';
/** The key the spec deprecates but servers still set beside `ui.resourceUri` (ext-apps' registerAppTool sets both). */
const LEGACY_URI_KEY = 'ui/resourceUri';

type Meta = Record<string, unknown> | undefined;

/** A client that declared the extension for HTML views: it renders MCP Apps. */
export function rendersApps(capabilities: { extensions?: Record<string, object> | undefined } | undefined): boolean {
  const ui = capabilities?.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  if (!ui) return false;
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(UI_MIME_TYPE);
}

export function isUiUri(uri: string): boolean {
  return uri.startsWith(UI_SCHEME);
}

function uiOf(meta: Meta): Record<string, unknown> | undefined {
  const ui = meta?.ui;
  return ui && typeof ui === 'object' && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/** The view a tool names (`_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]`), if any. */
export function toolViewUri(meta: Meta): string | undefined {
  const uri = uiOf(meta)?.resourceUri ?? meta?.[LEGACY_URI_KEY];
  return typeof uri === 'string' && isUiUri(uri) ? uri : undefined;
}

function visibility(meta: Meta): unknown[] | undefined {
  const v = uiOf(meta)?.visibility;
  return Array.isArray(v) ? v : undefined;
}

/** `_meta.ui.visibility` leaves out "model": only a view may call it, and no agent is shown it. */
export function isAppOnly(meta: Meta): boolean {
  const v = visibility(meta);
  return v !== undefined && !v.includes('model');
}

/** A view may call it: no visibility (both, by the spec's default) or one that includes "app". */
export function appMayCall(meta: Meta): boolean {
  const v = visibility(meta);
  return v === undefined || v.includes('app');
}

/** `meta` with the view URI replaced, under each key it was given under; `meta` itself when nothing changes. */
export function withViewUri(meta: Record<string, unknown>, uri: string): Record<string, unknown> {
  const ui = uiOf(meta);
  const out: Record<string, unknown> = { ...meta };
  if (typeof ui?.resourceUri === 'string') out.ui = { ...ui, resourceUri: uri };
  if (typeof meta[LEGACY_URI_KEY] === 'string') out[LEGACY_URI_KEY] = uri;
  return out;
}

/** `meta` as an app-only tool's: the view may call it, the host shows it to no model. */
export function appOnlyMeta(meta: Meta): Record<string, unknown> {
  return { ...meta, ui: { ...uiOf(meta), visibility: ['app'] } };
}

/** A `ui://` URI some server uses: listed as a resource, or named by one of its tools. */
export interface UiUse {
  server: string;
  uri: string;
}

/** Where each server's `ui://` URIs are read by hosts, and back. */
export interface UiUris {
  /** The URI hosts read `uri` of `server` by: `uri` itself unless another server uses it too. */
  exposed(server: string, uri: string): string;
  /** The server and its own URI behind a `ui://` URI hosts read; undefined when no server uses it. */
  resolve(uri: string): UiUse | undefined;
  /** The rewritten pairs, as one string: equal keys give the same URIs in tools' `_meta`. */
  readonly key: string;
}

const pairKey = (server: string, uri: string) => `${server}\0${uri}`;

export function uiUris(uses: Iterable<UiUse>): UiUris {
  const serversOf = new Map<string, Set<string>>();
  for (const { server, uri } of uses) {
    if (!isUiUri(uri)) continue;
    let servers = serversOf.get(uri);
    if (!servers) serversOf.set(uri, (servers = new Set()));
    servers.add(server);
  }
  const rewritten = new Map<string, string>();
  const byExposed = new Map<string, UiUse>();
  const shared = [...serversOf].filter(([, servers]) => servers.size > 1).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [uri, servers] of shared) {
    for (const server of [...servers].sort()) {
      const rest = uri.slice(UI_SCHEME.length);
      let exposed = `${UI_SCHEME}mcp-lens/${encodeURIComponent(server)}/${rest}`;
      // A server's own URI spelled like our rewrite: ours steps aside, by a hash of the pair.
      if (serversOf.has(exposed) || byExposed.has(exposed))
        exposed = `${UI_SCHEME}mcp-lens/${encodeURIComponent(server)}~${shortHash(pairKey(server, uri))}/${rest}`;
      rewritten.set(pairKey(server, uri), exposed);
      byExposed.set(exposed, { server, uri });
    }
  }
  for (const [uri, servers] of serversOf) {
    if (servers.size === 1 && !byExposed.has(uri)) byExposed.set(uri, { server: [...servers][0]!, uri });
  }
  return {
    exposed: (server, uri) => rewritten.get(pairKey(server, uri)) ?? uri,
    resolve: (uri) => byExposed.get(uri),
    key: JSON.stringify([...rewritten]),
  };
}
