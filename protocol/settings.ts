/**
 * Every `mcpLens.*` setting, once. package.json `contributes.configuration` declares the
 * same keys for the editor; the client reads them and passes them through `sanitizeSettings`,
 * the CLI builds them from flags and defaults, and the sidecar only ever sees this shape.
 */
import type { ExposureMode } from './model';

/** A server entry in the same shape as a `.vscode/mcp.json` `servers` value. */
export interface RawServerEntry {
  type?: string;
  command?: string;
  args?: unknown;
  env?: unknown;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: unknown;
  [key: string]: unknown;
}

export type ImportSource = 'vscode' | 'mcp-json' | 'claude-desktop' | 'cursor' | 'settings';

export interface McpLensSettings {
  servers: Record<string, RawServerEntry>;
  include: string[];
  exclude: string[];
  importFrom: ImportSource[];
  exposure: ExposureMode;
  pinnedTools: string[];
  callTimeoutSeconds: number;
  connectTimeoutSeconds: number;
  /** `eager`: connect every server at start; `lazy`: start a server on its first call, stop it when idle. */
  startup: 'eager' | 'lazy';
  /** Lazy start: minutes without a call after which a server is stopped. */
  idleTimeoutMinutes: number;
  /**
   * `learnFromUsage`: every find_tools → call of an agent teaches the ranking the workspace's
   * words for its tools (kept in the user's state folder, never sent anywhere).
   */
  search: { inlineSchemas: number; defaultLimit: number; learnFromUsage: boolean };
  ollama: { host: string };
  embedding: { model: string; enabled: boolean };
  usage: { enabled: boolean; retentionDays: number };
  predict: { minTools: number; maxTools: number };
  trace: { server: 'off' | 'messages' | 'verbose' };
  /** Default cap on a call_tool or run_code result, in o200k tokens; the rest is kept as a resource. */
  maxOutputTokens: number;
  /** run_code: `enabled` lists the tool; `maxTimeoutMs` bounds a script's `timeout_ms`. */
  codeMode: { enabled: boolean; maxTimeoutMs: number };
  /**
   * Which tools MCP Lens asks the user about before an agent runs them through call_tool or
   * run_code (core/consent.ts); never lowered by a workspace's files (consentOfAllLevels).
   */
  consent: 'off' | 'destructive' | 'notReadOnly';
  /** Exposure `found`: at most this many tools a session's agent chose are listed as its own. */
  found: { maxTools: number };
}

export const DEFAULT_SETTINGS: McpLensSettings = {
  servers: {},
  include: [],
  exclude: [],
  importFrom: ['vscode', 'mcp-json', 'settings'],
  exposure: 'search',
  pinnedTools: [],
  callTimeoutSeconds: 60,
  connectTimeoutSeconds: 30,
  startup: 'eager',
  idleTimeoutMinutes: 10,
  search: { inlineSchemas: 3, defaultLimit: 5, learnFromUsage: true },
  ollama: { host: 'http://127.0.0.1:11434' },
  embedding: { model: 'nomic-embed-text', enabled: true },
  usage: { enabled: true, retentionDays: 90 },
  predict: { minTools: 3, maxTools: 10 },
  trace: { server: 'off' },
  maxOutputTokens: 8000,
  codeMode: { enabled: true, maxTimeoutMs: 120_000 },
  consent: 'destructive',
  found: { maxTools: 8 },
};

/**
 * Restricted settings: the ones that send data out or change what runs (a URL, a path, a
 * command). `mcpLens.ollama.host` receives every tool description and every find_tools query.
 * A value for one of them in a workspace's files (which any cloned repository can ship) is
 * honoured only in a trusted workspace and once the user approved that exact value; otherwise
 * the user-level value (or the default, or OLLAMA_HOST) is used and the user is told why. The
 * manifest lists them in `capabilities.untrustedWorkspaces.restrictedConfigurations`.
 * (`mcpLens.servers` is restricted too, but each server in it is approved on its own, like one
 * in .vscode/mcp.json.) Keys are dotted paths under `mcpLens.`.
 */
export const RESTRICTED_SETTINGS: readonly string[] = ['ollama.host'];

/** Restricted keys a workspace sets → the value as written there. */
export type RestrictedValues = Record<string, string>;

/**
 * Where the approval of a workspace's restricted values is recorded beside server approvals
 * (a name no definition file can make a server take: config loading refuses it).
 */
export const RESTRICTED_APPROVAL_NAME = 'mcpLens.restrictedSettings';

function pathValue(raw: Record<string, unknown>, dotted: string): unknown {
  let v: unknown = raw;
  for (const part of dotted.split('.')) v = isRecord(v) ? v[part] : undefined;
  return v;
}

/** The restricted settings a raw `mcpLens` object (one level: user or workspace) sets, in RESTRICTED_SETTINGS order. */
export function restrictedValuesOf(raw: unknown): RestrictedValues {
  const out: RestrictedValues = {};
  if (!isRecord(raw)) return out;
  for (const key of RESTRICTED_SETTINGS) {
    const v = pathValue(raw, key);
    if (v !== undefined) out[key] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

/** A raw `mcpLens` object without its restricted settings (so the user's value or the default applies). */
export function withoutRestricted(raw: unknown): Record<string, unknown> {
  if (!isRecord(raw)) return {};
  const copy = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  for (const key of RESTRICTED_SETTINGS) {
    const parts = key.split('.');
    let parent: unknown = copy;
    for (const part of parts.slice(0, -1)) parent = isRecord(parent) ? parent[part] : undefined;
    if (isRecord(parent)) delete parent[parts[parts.length - 1]!];
  }
  return copy;
}

/** What is recorded when the user approves these values: the values themselves, canonical (sorted keys). */
export function restrictedApprovalValue(values: RestrictedValues): string {
  return JSON.stringify(
    Object.keys(values)
      .sort()
      .map((k) => [k, values[k]]),
  );
}

/**
 * `mcpLens.include` / `mcpLens.exclude` as one level of settings sets them; a key left out is
 * not set at that level. The sidecar compares the workspace's level with the one it last
 * accepted: a change that shows more tools waits for the user's approval
 * (server/src/core/config/filterWidening.ts).
 */
export interface ToolFilterLevel {
  include?: string[];
  exclude?: string[];
}

/**
 * Where the tool filter comes from, level by level: the user's own settings (applied as they
 * change: the user's hand) and the workspace's files (`.vscode/settings.json`, a
 * `.code-workspace` file, a folder's settings: writable by anything the agent can call).
 */
export interface ToolFilterLevels {
  user: ToolFilterLevel;
  workspace: ToolFilterLevel;
}

/**
 * Where the workspace's accepted tool filter is recorded beside server approvals (the editor's
 * approvals, the CLI's approval store): its canonical JSON (toolFilterValue), a name no
 * definition file can make a server take (config loading refuses it).
 */
export const TOOL_FILTER_APPROVAL_NAME = 'mcpLens.toolFilter';

/** The patterns of a list as the filter reads them: trimmed, empty ones dropped (core/config/toolFilter.ts). */
export function filterPatterns(list: readonly unknown[] | undefined): string[] {
  return (list ?? []).map((p) => (typeof p === 'string' ? p.trim() : '')).filter((p) => p !== '');
}

/** One level's filter, canonical (patterns trimmed, sorted and unique; `include` kept only when set). */
export function toolFilterValue(level: ToolFilterLevel): string {
  const sorted = (l: readonly unknown[] | undefined) => [...new Set(filterPatterns(l))].sort();
  return JSON.stringify(
    level.include === undefined
      ? { exclude: sorted(level.exclude) }
      : { include: sorted(level.include), exclude: sorted(level.exclude) },
  );
}

/** Levels as the editor sends them, patterns kept only where they are strings; undefined when not levels at all. */
export function sanitizeToolFilterLevels(v: unknown): ToolFilterLevels | undefined {
  if (!isRecord(v) || !isRecord(v.user) || !isRecord(v.workspace)) return undefined;
  const level = (raw: Record<string, unknown>): ToolFilterLevel => {
    const out: ToolFilterLevel = {};
    if (Array.isArray(raw.include)) out.include = filterPatterns(raw.include);
    if (Array.isArray(raw.exclude)) out.exclude = filterPatterns(raw.exclude);
    return out;
  };
  return { user: level(v.user), workspace: level(v.workspace) };
}

/** The level a toolFilterValue recorded; undefined for anything else (fail closed: nothing accepted). */
export function parseToolFilterValue(value: string | undefined): ToolFilterLevel | undefined {
  if (value === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || !Array.isArray(raw.exclude) || (raw.include !== undefined && !Array.isArray(raw.include)))
    return undefined;
  const level: ToolFilterLevel = { exclude: filterPatterns(raw.exclude) };
  if (Array.isArray(raw.include)) level.include = filterPatterns(raw.include);
  return level;
}

/** One restricted setting's value at each level, as the editor's `inspect` reports it. */
export interface SettingLevels {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface RestrictedGate {
  /** Per restricted key: the value to use (undefined: the default applies). */
  values: Record<string, unknown>;
  /** What the workspace sets for restricted keys (folder level wins), as written. */
  workspaceValues: RestrictedValues;
  /** `applied`: the workspace's values are used; otherwise why they are not. */
  state: 'none' | 'applied' | 'untrusted' | 'needs-approval';
}

/**
 * The editor's rule for restricted settings: a workspace (or folder) value counts only in a
 * trusted workspace whose user approved exactly these values (`approved` is what
 * restrictedApprovalValue gave when they did); otherwise the user's own value, else the default.
 */
export function gateRestricted(
  levels: Record<string, SettingLevels>,
  trusted: boolean,
  approved: string | undefined,
): RestrictedGate {
  const workspaceValues: RestrictedValues = {};
  for (const key of RESTRICTED_SETTINGS) {
    const l = levels[key];
    const v = l?.workspaceFolderValue ?? l?.workspaceValue;
    if (v !== undefined) workspaceValues[key] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  const hasWorkspace = Object.keys(workspaceValues).length > 0;
  const state = !hasWorkspace
    ? 'none'
    : !trusted
      ? 'untrusted'
      : approved === restrictedApprovalValue(workspaceValues)
        ? 'applied'
        : 'needs-approval';
  const values: Record<string, unknown> = {};
  for (const key of RESTRICTED_SETTINGS) {
    const l = levels[key];
    values[key] =
      state === 'applied' ? (l?.workspaceFolderValue ?? l?.workspaceValue ?? l?.globalValue) : l?.globalValue;
  }
  return { values, workspaceValues, state };
}

/**
 * `exclude` is a boundary, not a preference: a workspace may add patterns, never drop the
 * user's. The editor hands the sidecar the union of every level (VS Code would otherwise let a
 * repository's `"mcpLens.exclude": []` replace the user's list).
 */
export function excludeOfAllLevels(levels: SettingLevels | undefined): string[] {
  const all: string[] = [];
  for (const v of [levels?.globalValue, levels?.workspaceValue, levels?.workspaceFolderValue]) {
    if (Array.isArray(v)) for (const p of v) if (typeof p === 'string' && !all.includes(p)) all.push(p);
  }
  return all;
}

export type ConsentLevel = McpLensSettings['consent'];
/** From least to most asked: a later level asks about everything an earlier one does. */
const CONSENT_LEVELS: readonly ConsentLevel[] = ['off', 'destructive', 'notReadOnly'];

/**
 * `consent` is a floor, like `exclude` a boundary: a workspace's files (which an agent can write)
 * may make MCP Lens ask about more tools, never fewer. The level in force is the strictest of the
 * user's own value (else the default) and every workspace or folder value; a value that is not a
 * level counts as the default.
 */
export function consentOfAllLevels(
  levels: SettingLevels | undefined,
  folderValues: readonly unknown[] = [],
): ConsentLevel {
  const rank = (v: unknown) =>
    CONSENT_LEVELS.indexOf(CONSENT_LEVELS.includes(v as ConsentLevel) ? (v as ConsentLevel) : DEFAULT_SETTINGS.consent);
  let most = rank(levels?.globalValue);
  for (const v of [levels?.workspaceValue, levels?.workspaceFolderValue, ...folderValues])
    if (v !== undefined) most = Math.max(most, rank(v));
  return CONSENT_LEVELS[most]!;
}

/** Settings whose change needs the sidecar restarted rather than applied live. */
export const RESTART_SETTINGS: readonly string[] = ['ollama.host', 'embedding.model'];

const EXPOSURES: readonly ExposureMode[] = ['search', 'pinned', 'all', 'predictive', 'found'];
const IMPORTS: readonly ImportSource[] = ['vscode', 'mcp-json', 'claude-desktop', 'cursor', 'settings'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function strings(v: unknown, fallback: string[]): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : fallback;
}
function int(v: unknown, fallback: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback;
}
function bool(v: unknown, fallback: boolean): boolean {
  return typeof v === 'boolean' ? v : fallback;
}
function str(v: unknown, fallback: string): string {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback;
}

/**
 * Turns whatever the editor or a file holds into valid settings: unknown keys dropped,
 * wrong types replaced by defaults, numbers clamped. Never throws.
 */
export function sanitizeSettings(input: unknown, env: Record<string, string | undefined> = {}): McpLensSettings {
  const raw = isRecord(input) ? input : {};
  const d = DEFAULT_SETTINGS;
  const sub = (k: string): Record<string, unknown> => (isRecord(raw[k]) ? (raw[k] as Record<string, unknown>) : {});
  const servers: Record<string, RawServerEntry> = {};
  if (isRecord(raw.servers)) {
    for (const [name, entry] of Object.entries(raw.servers)) {
      if (isRecord(entry)) servers[name] = entry as RawServerEntry;
    }
  }
  const exposure = EXPOSURES.includes(raw.exposure as ExposureMode) ? (raw.exposure as ExposureMode) : d.exposure;
  const importFrom = strings(raw.importFrom, d.importFrom).filter((s): s is ImportSource =>
    IMPORTS.includes(s as ImportSource),
  );
  const minTools = int(sub('predict').minTools, d.predict.minTools, 0, 50);
  const trace = sub('trace').server;
  const ollamaHost = str(sub('ollama').host, env.OLLAMA_HOST ? normalizeOllamaHost(env.OLLAMA_HOST) : d.ollama.host);
  return {
    servers,
    include: strings(raw.include, d.include),
    exclude: strings(raw.exclude, d.exclude),
    importFrom: Array.isArray(raw.importFrom) ? importFrom : d.importFrom,
    exposure,
    pinnedTools: strings(raw.pinnedTools, d.pinnedTools),
    callTimeoutSeconds: int(raw.callTimeoutSeconds, d.callTimeoutSeconds, 1, 3600),
    connectTimeoutSeconds: int(raw.connectTimeoutSeconds, d.connectTimeoutSeconds, 1, 600),
    startup: raw.startup === 'lazy' ? 'lazy' : 'eager',
    idleTimeoutMinutes: int(raw.idleTimeoutMinutes, d.idleTimeoutMinutes, 1, 1440),
    search: {
      inlineSchemas: int(sub('search').inlineSchemas, d.search.inlineSchemas, 0, 50),
      defaultLimit: int(sub('search').defaultLimit, d.search.defaultLimit, 1, 50),
      learnFromUsage: bool(sub('search').learnFromUsage, d.search.learnFromUsage),
    },
    ollama: { host: ollamaHost },
    embedding: {
      model: str(sub('embedding').model, d.embedding.model),
      enabled: bool(sub('embedding').enabled, d.embedding.enabled),
    },
    usage: {
      enabled: bool(sub('usage').enabled, d.usage.enabled),
      retentionDays: int(sub('usage').retentionDays, d.usage.retentionDays, 1, 3650),
    },
    predict: { minTools, maxTools: Math.max(minTools, int(sub('predict').maxTools, d.predict.maxTools, 1, 50)) },
    trace: { server: trace === 'messages' || trace === 'verbose' ? trace : 'off' },
    maxOutputTokens: int(raw.maxOutputTokens, d.maxOutputTokens, 100, 1_000_000),
    codeMode: {
      enabled: bool(sub('codeMode').enabled, d.codeMode.enabled),
      maxTimeoutMs: int(sub('codeMode').maxTimeoutMs, d.codeMode.maxTimeoutMs, 1000, 3_600_000),
    },
    consent: CONSENT_LEVELS.includes(raw.consent as ConsentLevel) ? (raw.consent as ConsentLevel) : d.consent,
    found: { maxTools: int(sub('found').maxTools, d.found.maxTools, 1, 50) },
  };
}

/**
 * OLLAMA_HOST may be `host`, `host:port`, `0.0.0.0` or a URL; the client needs a URL.
 * As in Ollama itself, a bare host gets port 11434; an explicit scheme keeps its default.
 */
export function normalizeOllamaHost(value: string): string {
  const v = value.trim();
  const hasScheme = /^https?:\/\//.test(v);
  const u = new URL(hasScheme ? v : `http://${v}`);
  if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1';
  if (!hasScheme && !u.port) u.port = '11434';
  return u.origin;
}
