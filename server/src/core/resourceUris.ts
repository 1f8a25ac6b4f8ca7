/**
 * Upstream resources and resource templates under MCP Lens's URI scheme, and back.
 *
 * A resource `U` of server `S` is `mcp-lens://<S>/<encodeURIComponent(U)>`: whole, so any URI
 * survives as one path segment, and a client that re-encodes it (VS Code turns `%2F` back into
 * `/`) still decodes to `U`.
 *
 * A template keeps its expressions and encodes only its literal text:
 * `test://t/{id}/data` → `mcp-lens://S/test%3A%2F%2Ft%2F{id}%2Fdata`. A client expands that
 * exactly as it would have expanded the upstream's template (same expressions, same values), so
 * reading back matches the URI against it and puts the text each expression produced between
 * the upstream's own literal parts: the upstream gets byte for byte the URI a client connected
 * to it directly would have sent, reserved and encoded characters included.
 */

export const RESOURCE_SCHEME = 'mcp-lens';

export function resourceUri(server: string, originalUri: string): string {
  return `${RESOURCE_SCHEME}://${encodeURIComponent(server)}/${encodeURIComponent(originalUri)}`;
}

/** Server and encoded tail of one of our URIs; undefined for any other URI. */
function splitUri(uri: string): { server: string; tail: string } | undefined {
  const m = /^mcp-lens:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!m) return undefined;
  try {
    return { server: decodeURIComponent(m[1]!), tail: m[2]! };
  } catch {
    return undefined;
  }
}

export function parseResourceUri(uri: string): { server: string; originalUri: string } | undefined {
  const split = splitUri(uri);
  if (!split) return undefined;
  try {
    return { server: split.server, originalUri: decodeURIComponent(split.tail) };
  } catch {
    return undefined;
  }
}

/** A URI template's literal text and `{…}` expressions, in order (RFC 6570 level 4 syntax). */
function templateParts(template: string): { literal: boolean; text: string }[] {
  const parts: { literal: boolean; text: string }[] = [];
  const re = /\{[^{}]*\}/g;
  let at = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    if (m.index > at) parts.push({ literal: true, text: template.slice(at, m.index) });
    parts.push({ literal: false, text: m[0] });
    at = m.index + m[0].length;
  }
  if (at < template.length) parts.push({ literal: true, text: template.slice(at) });
  return parts;
}

export function resourceTemplateUri(server: string, originalTemplate: string): string {
  const body = templateParts(originalTemplate)
    .map((p) => (p.literal ? encodeURIComponent(p.text) : p.text))
    .join('');
  return `${RESOURCE_SCHEME}://${encodeURIComponent(server)}/${body}`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The upstream URI for `uri` when it is an expansion of `originalTemplate` under our scheme
 * (server `server`); undefined when it is not.
 */
export function matchTemplateUri(uri: string, server: string, originalTemplate: string): string | undefined {
  const parts = templateParts(originalTemplate);
  if (!parts.some((p) => !p.literal)) return undefined;
  const prefix = `${RESOURCE_SCHEME}://${encodeURIComponent(server)}/`;
  if (!uri.startsWith(prefix)) return undefined;
  const pattern = parts.map((p) => (p.literal ? escapeRegExp(encodeURIComponent(p.text)) : '(.*?)')).join('');
  const m = new RegExp(`^${pattern}$`, 's').exec(uri.slice(prefix.length));
  if (!m) return undefined;
  let group = 1;
  return parts.map((p) => (p.literal ? p.text : m[group++]!)).join('');
}

/**
 * Where one of our URIs points: a listed resource of its server first, then an expansion of one
 * of that server's templates, then the URI decoded whole. Undefined for a URI not ours.
 */
export function resolveResourceUri(
  uri: string,
  listed: (server: string, originalUri: string) => boolean,
  templatesOf: (server: string) => readonly string[],
): { server: string; originalUri: string } | undefined {
  const split = splitUri(uri);
  if (!split) return undefined;
  const whole = parseResourceUri(uri);
  if (whole && listed(split.server, whole.originalUri)) return whole;
  for (const template of templatesOf(split.server)) {
    const originalUri = matchTemplateUri(uri, split.server, template);
    if (originalUri !== undefined) return { server: split.server, originalUri };
  }
  return whole;
}
