/**
 * The team's configuration (`serve --http --team FILE`): who signs in (the identity provider and
 * how its tokens are checked), who may see which servers and tools (groups from a token claim),
 * which stdio servers all people share, who approves server definitions, and what the audit
 * keeps. The servers themselves are the workspace's, approved as always (by an admin here).
 * Parsed here, pure; read from its file in adapters/config/teamConfigFile.ts. Nothing in it is a
 * secret: the introspection client's secret is named by an environment variable.
 */

/** Everyone who signed in, in a `groups` list. */
export const EVERYONE = '*';

export interface TeamSignIn {
  /** The identity provider: tokens must name it as `iss`, and its metadata is found from it. */
  issuer: string;
  /** What tokens must name as `aud`: MCP Lens's resource URI (default `resource`). */
  audience: string;
  /** `jwt`: access tokens are JWTs checked here (signature by the provider's JWKS); `introspection`: asked of the provider (RFC 7662). */
  tokens: 'jwt' | 'introspection';
  /** For introspection: the client MCP Lens authenticates as, and the environment variable that holds its secret. */
  introspection?: { clientId: string; clientSecretEnv: string };
  /** The token claim that lists the person's groups. */
  groupsClaim: string;
  /** The claim that names the person in the audit and in messages (first present wins). */
  nameClaims: string[];
  /** The least time between two fetches of the provider's keys when a token names a key not known (key rotation). */
  jwksRefetchSeconds: number;
  clockToleranceSeconds: number;
}

export interface ToolRule {
  /** An upstream tool's own name, `*` matching any run of characters. */
  pattern: string;
  groups: string[];
}

export interface ServerRule {
  /** Who sees the server at all. */
  groups: string[];
  /** Narrower rules for some of its tools: a person must be in every matching rule's groups. */
  tools: ToolRule[];
  /** A stdio server every person's calls share (one process): only for servers that keep no per-client state. */
  shared: boolean;
}

export interface TeamConfig {
  /** MCP Lens's public URL, as clients reach it (`https://lens.example.com/mcp`): the resource URI. */
  resource: string;
  signIn: TeamSignIn;
  /** Groups whose people approve server definitions. */
  admins: string[];
  /** Servers named here are seen by their groups; a server not named is seen by no one. */
  servers: Record<string, ServerRule>;
  audit: { file?: string; arguments: boolean };
}

export interface TeamConfigProblem {
  path: string;
  message: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the team configuration from parsed JSON; every problem is named with where it is. */
export function parseTeamConfig(raw: unknown): { config?: TeamConfig; problems: TeamConfigProblem[] } {
  const problems: TeamConfigProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });
  if (!isObj(raw)) return { problems: [{ path: '', message: 'the team configuration must be a JSON object' }] };
  known(raw, ['resource', 'signIn', 'admins', 'servers', 'audit'], '', report);
  const resource = httpsUrl(raw.resource, 'resource', report, true);
  const signIn = parseSignIn(raw.signIn, resource, report);
  const admins = groupList(raw.admins ?? [], 'admins', report);
  const servers: Record<string, ServerRule> = {};
  if (raw.servers !== undefined && !isObj(raw.servers)) report('servers', 'must be an object of server names');
  for (const [name, rule] of Object.entries(isObj(raw.servers) ? raw.servers : {})) {
    const parsed = parseServerRule(rule, `servers.${name}`, report);
    if (parsed) servers[name] = parsed;
  }
  const audit = parseAudit(raw.audit, report);
  if (problems.length || !resource || !signIn) return { problems };
  return { config: { resource, signIn, admins, servers, audit }, problems };
}

function parseSignIn(
  raw: unknown,
  resource: string | undefined,
  report: (p: string, m: string) => void,
): TeamSignIn | undefined {
  if (!isObj(raw)) {
    report('signIn', 'must be an object with at least "issuer" (the identity provider)');
    return undefined;
  }
  known(
    raw,
    [
      'issuer',
      'audience',
      'tokens',
      'introspection',
      'groupsClaim',
      'nameClaims',
      'jwksRefetchSeconds',
      'clockToleranceSeconds',
    ],
    'signIn',
    report,
  );
  const issuer = httpsUrl(raw.issuer, 'signIn.issuer', report, false);
  const audience = raw.audience === undefined ? resource : text(raw.audience, 'signIn.audience', report);
  const tokens = raw.tokens ?? 'jwt';
  if (tokens !== 'jwt' && tokens !== 'introspection')
    report('signIn.tokens', 'must be "jwt" (checked here) or "introspection" (asked of the provider)');
  let introspection: TeamSignIn['introspection'];
  if (tokens === 'introspection') {
    const i = raw.introspection;
    if (!isObj(i) || typeof i.clientId !== 'string' || typeof i.clientSecretEnv !== 'string')
      report(
        'signIn.introspection',
        'introspection needs {"clientId": "...", "clientSecretEnv": "NAME_OF_THE_VARIABLE_HOLDING_THE_SECRET"}',
      );
    else introspection = { clientId: i.clientId, clientSecretEnv: i.clientSecretEnv };
  }
  const groupsClaim = raw.groupsClaim === undefined ? 'groups' : text(raw.groupsClaim, 'signIn.groupsClaim', report);
  const nameClaims =
    raw.nameClaims === undefined
      ? ['email', 'preferred_username', 'name']
      : groupList(raw.nameClaims, 'signIn.nameClaims', report);
  const refetch = seconds(raw.jwksRefetchSeconds, 30, 'signIn.jwksRefetchSeconds', report);
  const tolerance = seconds(raw.clockToleranceSeconds, 30, 'signIn.clockToleranceSeconds', report);
  if (!issuer || !audience || !groupsClaim) return undefined;
  const out: TeamSignIn = {
    issuer,
    audience,
    tokens: tokens === 'introspection' ? 'introspection' : 'jwt',
    groupsClaim,
    nameClaims,
    jwksRefetchSeconds: refetch,
    clockToleranceSeconds: tolerance,
  };
  if (introspection) out.introspection = introspection;
  return out;
}

function parseServerRule(raw: unknown, path: string, report: (p: string, m: string) => void): ServerRule | undefined {
  if (!isObj(raw)) {
    report(path, 'must be an object such as {"groups": ["*"]}');
    return undefined;
  }
  known(raw, ['groups', 'tools', 'shared'], path, report);
  const groups = groupList(raw.groups ?? [], `${path}.groups`, report);
  const tools: ToolRule[] = [];
  if (raw.tools !== undefined && !isObj(raw.tools))
    report(`${path}.tools`, 'must map tool names (with * wildcards) to groups');
  for (const [pattern, g] of Object.entries(isObj(raw.tools) ? raw.tools : {}))
    tools.push({ pattern, groups: groupList(g, `${path}.tools.${pattern}`, report) });
  if (raw.shared !== undefined && typeof raw.shared !== 'boolean') report(`${path}.shared`, 'must be true or false');
  return { groups, tools, shared: raw.shared === true };
}

function parseAudit(raw: unknown, report: (p: string, m: string) => void): TeamConfig['audit'] {
  if (raw === undefined) return { arguments: false };
  if (!isObj(raw)) {
    report('audit', 'must be an object such as {"file": "audit.jsonl"}');
    return { arguments: false };
  }
  known(raw, ['file', 'arguments'], 'audit', report);
  if (raw.arguments !== undefined && typeof raw.arguments !== 'boolean')
    report('audit.arguments', 'must be true or false');
  const out: TeamConfig['audit'] = { arguments: raw.arguments === true };
  if (raw.file !== undefined) {
    const file = text(raw.file, 'audit.file', report);
    if (file) out.file = file;
  }
  return out;
}

function known(raw: Obj, keys: string[], path: string, report: (p: string, m: string) => void): void {
  for (const k of Object.keys(raw))
    if (!keys.includes(k))
      report(path ? `${path}.${k}` : k, `unknown setting "${k}" (expected one of: ${keys.join(', ')})`);
}

function text(v: unknown, path: string, report: (p: string, m: string) => void): string | undefined {
  if (typeof v === 'string' && v.trim() !== '') return v;
  report(path, 'must be a non-empty string');
  return undefined;
}

/**
 * A URL that must be https, except on a loopback host (a provider or a gateway on the same
 * machine, as in a demo or a test). `path`: whether a path is expected (the resource's /mcp).
 */
function httpsUrl(
  v: unknown,
  path: string,
  report: (p: string, m: string) => void,
  withPath: boolean,
): string | undefined {
  const s = text(v, path, report);
  if (!s) return undefined;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    report(path, `"${s.slice(0, 200)}" is not a URL`);
    return undefined;
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    report(path, 'must be an https:// URL (http:// only on 127.0.0.1 or localhost)');
    return undefined;
  }
  if (url.hash || url.search) report(path, 'must have no query or fragment');
  if (withPath && url.pathname === '/') report(path, 'must name the MCP endpoint, e.g. https://lens.example.com/mcp');
  return s;
}

function groupList(v: unknown, path: string, report: (p: string, m: string) => void): string[] {
  if (Array.isArray(v) && v.every((g) => typeof g === 'string' && g !== '')) return v as string[];
  report(path, 'must be a list of group names ("*": everyone who signed in)');
  return [];
}

function seconds(v: unknown, fallback: number, path: string, report: (p: string, m: string) => void): number {
  if (v === undefined) return fallback;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 86_400) return v;
  report(path, 'must be a number of seconds from 0 to 86400');
  return fallback;
}
