/**
 * The settings contract's rules: the one sanitizer every reader passes `mcpLens.*` settings
 * through (the editor's client, the CLI, the sidecar), the restricted settings' gate and the
 * tool filter's levels. The settings themselves (types, bounds, defaults, what the editor shows)
 * are declared once, in settingsSchema.ts.
 */
import * as z from 'zod/mini';
import { mustBe } from './schemaProblems';
import { SettingsSchema, settingLeaves, type McpLensSettings } from './settingsSchema';

export type { ImportSource, McpLensSettings, RawServerEntry } from './settingsSchema';

/** Every setting at its default (OLLAMA_HOST aside: sanitizeSettings applies it). */
export const DEFAULT_SETTINGS: McpLensSettings = SettingsSchema.parse({});

/** Settings whose change needs the sidecar restarted rather than applied live. */
export const RESTART_SETTINGS: readonly string[] = settingLeaves()
  .filter((l) => l.info.restart)
  .map((l) => l.key);

/**
 * Restricted settings: the ones that send data out or change what runs (a URL, a path, a
 * command). `mcpLens.ollama.host` receives every tool description and every find_tools query.
 * A value for one of them in a workspace's files (which any cloned repository can ship) is
 * honoured only in a trusted workspace and once the user approved that exact value; otherwise
 * the user-level value (or the default, or OLLAMA_HOST) is used and the user is told why. The
 * manifest lists them in `capabilities.untrustedWorkspaces.restrictedConfigurations`.
 * (`mcpLens.servers` is restricted too, but each server in it is approved on its own, like one
 * in .vscode/mcp.json.) Keys are dotted paths under `mcpLens.`; each is marked in settingsSchema.ts.
 */
export const RESTRICTED_SETTINGS: readonly string[] = settingLeaves()
  .filter((l) => l.info.restricted === 'gate')
  .map((l) => l.key);

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

/** The patterns of a list as the filter reads them: trimmed, empty ones dropped (core/config/toolFilter.ts). */
export function filterPatterns(list: readonly unknown[] | undefined): string[] {
  return (list ?? []).map((p) => (typeof p === 'string' ? p.trim() : '')).filter((p) => p !== '');
}

const FilterPatterns = z.pipe(
  z.array(z.string()),
  z.transform((list: string[]) => filterPatterns(list)),
);

/**
 * `mcpLens.include` / `mcpLens.exclude` as one level of settings sets them; a key left out is
 * not set at that level. The sidecar compares the workspace's level with the one it last
 * accepted: a change that shows more tools waits for the user's approval
 * (server/src/core/config/filterWidening.ts).
 */
export const ToolFilterLevelSchema = z.object({
  include: z.exactOptional(FilterPatterns),
  exclude: z.exactOptional(FilterPatterns),
});
export type ToolFilterLevel = z.output<typeof ToolFilterLevelSchema>;

/**
 * Where the tool filter comes from, level by level: the user's own settings (applied as they
 * change: the user's hand) and the workspace's files (`.vscode/settings.json`, a
 * `.code-workspace` file, a folder's settings: writable by anything the agent can call).
 */
export const ToolFilterLevelsSchema = z.object({ user: ToolFilterLevelSchema, workspace: ToolFilterLevelSchema });
export type ToolFilterLevels = z.output<typeof ToolFilterLevelsSchema>;

/** What toolFilterValue records: `exclude` always, `include` when the level sets it. */
const RecordedToolFilter = z.object({ include: z.exactOptional(FilterPatterns), exclude: FilterPatterns });

/**
 * Where the workspace's accepted tool filter is recorded beside server approvals (the editor's
 * approvals, the CLI's approval store): its canonical JSON (toolFilterValue), a name no
 * definition file can make a server take (config loading refuses it).
 */
export const TOOL_FILTER_APPROVAL_NAME = 'mcpLens.toolFilter';

/** One level's filter, canonical (patterns trimmed, sorted and unique; `include` kept only when set). */
export function toolFilterValue(level: ToolFilterLevel): string {
  const sorted = (l: readonly unknown[] | undefined) => [...new Set(filterPatterns(l))].sort();
  return JSON.stringify(
    level.include === undefined
      ? { exclude: sorted(level.exclude) }
      : { include: sorted(level.include), exclude: sorted(level.exclude) },
  );
}

/** The level a toolFilterValue recorded; undefined for anything else (fail closed: nothing accepted). */
export function parseToolFilterValue(value: string | undefined): ToolFilterLevel | undefined {
  if (value === undefined) return undefined;
  try {
    const recorded = RecordedToolFilter.safeParse(JSON.parse(value));
    return recorded.success ? recorded.data : undefined;
  } catch {
    return undefined;
  }
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Receives one line per setting that was not used as written: the setting's name and why, never its value. */
export type SettingsWarn = (message: string) => void;

/**
 * Turns whatever the editor or a file holds into valid settings, through SettingsSchema: unknown
 * keys dropped; a value of the wrong type, or not one of its choices, replaced by its default; a
 * number out of range clamped, a fraction rounded; an array's items of the wrong type and a
 * server entry that is no object left out. Each repair is reported through `warn`, naming the
 * setting. An unset `ollama.host` takes OLLAMA_HOST from `env`. Never throws.
 */
export function sanitizeSettings(
  input: unknown,
  env: Record<string, string | undefined> = {},
  warn?: SettingsWarn,
): McpLensSettings {
  const say = warn ?? (() => undefined);
  if (input !== undefined && input !== null && !isRecord(input))
    say('mcpLens settings must be an object; the defaults apply');
  const raw = isRecord(input) ? input : {};
  let parsed = SettingsSchema.safeParse(raw);
  let given = raw;
  if (!parsed.success) {
    given = repaired(raw, parsed.error.issues, say);
    parsed = SettingsSchema.safeParse(given);
  }
  const settings: McpLensSettings = parsed.success ? parsed.data : SettingsSchema.parse({});
  if (!isRecord(given.ollama) || given.ollama.host === undefined) {
    const host = ollamaHostOf(env, say);
    if (host) settings.ollama.host = host;
  }
  if (settings.predict.maxTools < settings.predict.minTools) {
    say(`mcpLens.predict.maxTools is less than mcpLens.predict.minTools; ${settings.predict.minTools} applies`);
    settings.predict.maxTools = settings.predict.minTools;
  }
  return settings;
}

function ollamaHostOf(env: Record<string, string | undefined>, say: SettingsWarn): string | undefined {
  if (!env.OLLAMA_HOST) return undefined;
  try {
    return normalizeOllamaHost(env.OLLAMA_HOST);
  } catch {
    say('OLLAMA_HOST is not a host or an URL; mcpLens.ollama.host applies');
    return undefined;
  }
}

/**
 * A copy of `raw` with what each issue found repaired: a number out of range set to the bound it
 * crossed, an array item or a server entry taken out, anything else removed so its default
 * applies.
 */
function repaired(raw: Record<string, unknown>, issues: readonly z.core.$ZodIssue[], say: SettingsWarn) {
  let copy: Record<string, unknown>;
  try {
    copy = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  } catch {
    say('mcpLens settings could not be read as JSON; the defaults apply');
    return {};
  }
  const items: { array: unknown[]; index: number }[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String);
    const name = `mcpLens.${path.join('.')}`;
    const parent = path
      .slice(0, -1)
      .reduce<unknown>(
        (v, k) => (isRecord(v) || Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined),
        copy,
      );
    const last = path[path.length - 1]!;
    const bound = numberBound(issue);
    if (bound !== undefined && isRecord(parent)) {
      parent[last] = bound;
      say(
        `${name} is ${issue.code === 'too_big' ? 'more' : 'less'} than ${bound}, the ${issue.code === 'too_big' ? 'most' : 'least'} it can be; ${bound} applies`,
      );
    } else if (Array.isArray(parent)) {
      items.push({ array: parent, index: Number(last) });
      say(`${name.replace(/\.(\d+)$/, (_, i: string) => `[${i}]`)} ${mustBe(issue)}; it is left out`);
    } else if (isRecord(parent)) {
      delete parent[last];
      const fallback = path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), DEFAULT_SETTINGS);
      say(
        `${name} ${mustBe(issue)}; ${fallback === undefined ? 'it is left out' : `the default (${JSON.stringify(fallback)}) applies`}`,
      );
    }
  }
  // Last first, so an array's other indexes stay right.
  for (const { array, index } of items.sort((a, b) => b.index - a.index)) array.splice(index, 1);
  return copy;
}

/** The bound a number crossed, when that is what is wrong with it. */
function numberBound(issue: z.core.$ZodIssue): number | undefined {
  if (issue.code === 'too_big' && issue.origin === 'number') return Number(issue.maximum);
  if (issue.code === 'too_small' && issue.origin === 'number') return Number(issue.minimum);
  return undefined;
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
