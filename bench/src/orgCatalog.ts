/**
 * An organisation-sized tool catalog made from the real ones, for `mcp-lens bench --scale`:
 * what a gateway in front of every team's MCP servers would index. Replicating a catalog
 * (the old `--scale`) kept its vocabulary and multiplied every posting list; an organisation
 * adds servers, names and words as it grows. So, deterministically from a seed:
 *
 * - The real catalogs come first, unchanged (bench/datasets/* and the recorded 19-server
 *   workspace, deduplicated by key): their queries' gold tools are in every catalog, so a
 *   run also says how the datasets' requests fare among the distractors.
 * - Then generated servers, each a copy of one real server deployed by a team: a team name
 *   (a department word, sometimes with a region or unit qualifier) and a codename made of
 *   two syllables, unique per server (an internal product name: the vocabulary grows by
 *   about one word per server). Two kinds: a team's own deployment of a known service
 *   (`payments-github-korvan`: product words kept) or an internal service built like one
 *   (`payments-korvan`: the service's name replaced by the codename in its descriptions).
 * - Tool names follow one style per server: as the service names them, prefixed with the
 *   codename or the team, or in the other case convention (snake_case ↔ camelCase).
 * - Descriptions are recombined: the tool's first sentence, at times a sentence borrowed from
 *   a sibling tool of the same real server, and one sentence about the deployment out of a
 *   dozen templates (team, codename, environment), so no two servers' descriptions are equal.
 * - A quarter of the servers add a parameter named for their codename (`korvan_project`) to
 *   every tool, so parameter vocabulary grows too.
 *
 * Nothing here is tuned to a dataset's queries; the same seed gives the same catalog.
 */
import { readFileSync } from 'node:fs';
import { seededRandom } from './seededRandom';
import { allDatasetDirs, datasetToolsFile, recordedCatalogFile } from './benchFiles';

/** A tool as a server lists it (bench/datasets tools.json rows; also what the catalog cache stores). */
export interface RawTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export const DEFAULT_ORG_SEED = 25;

const TEAM_WORDS = [
  'payments', 'billing', 'identity', 'growth', 'search', 'infra', 'platform', 'data', 'ml', 'security',
  'mobile', 'web', 'support', 'sales', 'logistics', 'inventory', 'people', 'finance', 'legal', 'marketing',
  'analytics', 'observability', 'checkout', 'catalog', 'pricing', 'fraud', 'risk', 'compliance', 'docs', 'devex',
  'release', 'storage', 'network', 'edge', 'messaging', 'notifications', 'ads', 'partners', 'onboarding', 'research',
  'design', 'qa', 'warehouse', 'shipping', 'media', 'streaming', 'gaming', 'health',
]; // prettier-ignore
const QUALIFIERS = ['eu', 'us', 'apac', 'core', 'internal', 'labs', 'ops', 'mobile', 'b2b', 'retail', 'emea', 'latam'];
const ENVIRONMENTS = ['production', 'staging', 'sandbox', 'eu-west', 'us-east', 'ap-south', 'preview', 'on-prem'];
const ONSETS = [
  'b',
  'br',
  'c',
  'ch',
  'd',
  'dr',
  'f',
  'g',
  'gr',
  'k',
  'kr',
  'l',
  'm',
  'n',
  'p',
  'pr',
  'r',
  's',
  'st',
  't',
  'tr',
  'v',
  'z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io'];
const CODAS = ['', 'n', 'r', 'l', 'x', 's', 'th', 'm'];
const PARAM_KINDS = ['project', 'workspace', 'tenant', 'account', 'cluster'];

/** One sentence about where a server runs and who owns it; {T} team, {C} codename, {E} environment. */
const DEPLOYMENT_SENTENCES = [
  'Owned by the {T} team.',
  'Runs against the {E} {C} deployment.',
  'Part of {C}, maintained by {T}.',
  'Scoped to {T} projects in {E}.',
  'Results come from the {C} {E} replica.',
  'Requires a {T} service account.',
  'Calls are audited by {C}.',
  'Served by {C} for the {T} team.',
  'Uses the {T} credentials of the {E} environment.',
  'Backed by the {C} service in {E}.',
  'Rate limited per {T} workspace.',
  'Mirrors {C} data from {E}.',
];

interface BaseServer {
  name: string;
  tools: RawTool[];
}

/** The real catalogs as one list: every dataset's tools.json, then the recorded workspace, first occurrence of a key kept. */
export function realTools(): RawTool[] {
  const out: RawTool[] = [];
  const seen = new Set<string>();
  const add = (t: Partial<RawTool> & { server: string; name: string }) => {
    const key = `${t.server}/${t.name}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({
      server: t.server,
      name: t.name,
      description: t.description ?? '',
      inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
    });
  };
  // A set that shares another's catalog (tools_from) adds nothing new: the first occurrence of a key is kept.
  for (const dir of allDatasetDirs())
    for (const t of JSON.parse(readFileSync(datasetToolsFile(dir)!, 'utf8')) as RawTool[]) add(t);
  const recorded = JSON.parse(readFileSync(recordedCatalogFile(), 'utf8')) as {
    servers: Record<string, { tools: Omit<RawTool, 'server'>[] }>;
  };
  for (const [server, s] of Object.entries(recorded.servers)) for (const t of s.tools) add({ ...t, server });
  return out;
}

/** `size` tools: the real ones (`base`, in order, cut at `size`), then generated servers until `size`. */
export function orgCatalog(base: readonly RawTool[], size: number, seed = DEFAULT_ORG_SEED): RawTool[] {
  const out = base.slice(0, size);
  const servers = byServer(base);
  if (servers.length === 0) return out;
  // A server is drawn in proportion to its tools: an organisation's catalog is mostly tools of
  // servers with many (a dozen-odd on average, as in the recorded workspace), not one-tool APIs.
  const cumulative: number[] = [];
  servers.reduce((sum, s) => (cumulative.push(sum + s.tools.length), sum + s.tools.length), 0);
  const rng = seededRandom(seed);
  const codenames = new Set<string>();
  const usedServers = new Set(base.map((t) => t.server));
  while (out.length < size) {
    const from = servers[lowerBound(cumulative, rng() * cumulative[cumulative.length - 1]!)]!;
    const team = teamName(rng);
    const codename = uniqueCodename(rng, codenames);
    const server = generatedServer(from, team, codename, rng, usedServers);
    for (const t of server) {
      if (out.length >= size) break;
      out.push(t);
    }
  }
  return out;
}

function byServer(tools: readonly RawTool[]): BaseServer[] {
  const map = new Map<string, RawTool[]>();
  for (const t of tools) {
    const list = map.get(t.server);
    if (list) list.push(t);
    else map.set(t.server, [t]);
  }
  return [...map].map(([name, list]) => ({ name, tools: list }));
}

/** One team's deployment of `from`: its tools renamed, re-described and sometimes given a parameter. */
function generatedServer(
  from: BaseServer,
  team: string,
  codename: string,
  rng: () => number,
  used: Set<string>,
): RawTool[] {
  const internal = rng() < 0.6;
  let server = internal ? `${team}-${codename}` : `${team}-${slug(from.name)}-${codename}`;
  for (let i = 2; used.has(server); i++) server = `${team}-${codename}-${i}`;
  used.add(server);
  const Codename = codename[0]!.toUpperCase() + codename.slice(1);
  const environment = pick(rng, ENVIRONMENTS);
  const naming = pick(rng, ['keep', 'keep', 'codename', 'team', 'case'] as const);
  const extraParam = rng() < 0.25 ? `${codename}_${pick(rng, PARAM_KINDS)}` : undefined;
  const productWords = internal ? productPattern(from.name) : undefined;
  const names = new Set<string>();
  return from.tools.map((t) => {
    let name = toolName(t.name, naming, codename, team);
    for (let i = 2; names.has(name); i++) name = `${toolName(t.name, naming, codename, team)}_${i}`;
    names.add(name);
    const own = sentencesOf(t.description);
    const parts = [own[0] ?? t.name];
    if (from.tools.length > 1 && rng() < 0.5) {
      const sibling = pick(rng, from.tools);
      const borrowed = sentencesOf(sibling.description);
      if (sibling !== t && borrowed.length > 0) parts.push(pick(rng, borrowed));
    } else if (own.length > 1) parts.push(own[1]!);
    const deployment = pick(rng, DEPLOYMENT_SENTENCES)
      .replace('{T}', team)
      .replace('{C}', Codename)
      .replace('{E}', environment);
    let description = [...parts.map((s) => (/[.!?]$/.test(s) ? s : `${s}.`)), deployment].join(' ');
    if (productWords) description = description.replace(productWords, Codename);
    return {
      server,
      name,
      description,
      inputSchema: extraParam ? withParam(t.inputSchema, extraParam, Codename, team) : t.inputSchema,
    };
  });
}

function toolName(name: string, naming: 'keep' | 'codename' | 'team' | 'case', codename: string, team: string): string {
  switch (naming) {
    case 'keep':
      return name;
    case 'codename':
      return `${codename}_${name}`;
    case 'team':
      return `${team.replace(/-/g, '_')}_${name}`;
    case 'case':
      return /_/.test(name)
        ? name.replace(/_+([a-z0-9])/gi, (_m, c: string) => c.toUpperCase())
        : name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  }
}

/** The words of a real server's name as they appear in its descriptions ("github", "Google Maps"), case-insensitive. */
function productPattern(server: string): RegExp | undefined {
  const words = server
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 2);
  if (words.length === 0) return undefined;
  return new RegExp(`\\b${words.map(escapeRegExp).join('[\\s_-]*')}\\b`, 'gi');
}

function withParam(
  schema: Record<string, unknown>,
  param: string,
  Codename: string,
  team: string,
): Record<string, unknown> {
  const properties = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<
    string,
    unknown
  >;
  const kind = param.slice(param.indexOf('_') + 1);
  return {
    ...schema,
    properties: {
      ...properties,
      [param]: { type: 'string', description: `The ${Codename} ${kind} to use (defaults to the ${team} one)` },
    },
  };
}

function teamName(rng: () => number): string {
  const word = pick(rng, TEAM_WORDS);
  return rng() < 0.6 ? word : `${pick(rng, QUALIFIERS)}-${word}`;
}

/** Two syllables, unique in `used` (three once two-syllable names run short). */
function uniqueCodename(rng: () => number, used: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const syllables = attempt < 50 ? 2 : 3;
    let name = '';
    for (let i = 0; i < syllables; i++) name += pick(rng, ONSETS) + pick(rng, VOWELS) + pick(rng, CODAS);
    if (name.length >= 4 && !used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 24) || 'service'
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first index whose cumulative weight exceeds `x`. */
function lowerBound(cumulative: readonly number[], x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function pick<T>(rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}
