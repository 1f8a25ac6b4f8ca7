/**
 * Every `mcpLens.*` setting, declared once: its type, bounds and default (the zod schema), and
 * what the editor shows of it (SETTING_INFO: description, scope, order). Everything else is
 * derived from here: the `McpLensSettings` type, `DEFAULT_SETTINGS` and the sanitizer
 * (settings.ts), the settings needing a restart and the restricted ones, and package.json's
 * `contributes.configuration` (scripts/manifest-contributes.ts writes it; the manifest test checks
 * it is current). A key nests as the setting's name does: `search.defaultLimit` is
 * `mcpLens.search.defaultLimit`. zod/mini keeps the extension's bundle small (the webview imports
 * none of this).
 */
import * as z from 'zod/mini';
import { EXPOSURE_MODES } from './model';

/** What the editor shows of a setting and how MCP Lens treats a change of it. */
export interface SettingInfo {
  /** Plain text; or `markdownDescription`, for one with code or links. */
  description?: string;
  markdownDescription?: string;
  /** Where it may be set (VS Code's configuration scopes); every one a workspace can set. */
  scope: 'resource' | 'window' | 'machine-overridable';
  /** Place in the Settings editor, when not by name. */
  order?: number;
  /** One line per enum value (of the setting, or of its items for an array of enum values). */
  enumDescriptions?: readonly string[];
  /** A change needs the sidecar restarted rather than applied live. */
  restart?: true;
  /**
   * A workspace's value is honoured only in a trusted workspace once the user approved it
   * (`gate`: settings.ts's RESTRICTED_SETTINGS), or each entry is approved on its own (`each-entry`:
   * the servers, like those of .vscode/mcp.json). Both are VS Code restricted configurations.
   */
  restricted?: 'gate' | 'each-entry';
  /** JSON Schema keywords only the editor reads, beside those derived from the schema. */
  editor?: Record<string, unknown>;
}

/** The editor's side of each setting, keyed by the setting's schema. */
export const SETTING_INFO = z.registry<SettingInfo>();

function setting<T extends z.ZodMiniType>(schema: T, info: SettingInfo): T {
  SETTING_INFO.add(schema, info);
  return schema;
}

/** A whole number of something from `min` to `max`; a fraction is rounded (settings.ts clamps one out of range). */
function count(min: number, max: number) {
  return z.pipe(z.number().check(z.minimum(min), z.maximum(max)), z.transform(Math.round));
}

function withDefault<T extends z.ZodMiniType>(schema: T, value: z.output<T>) {
  return z._default(schema, value as z.util.NoUndefined<z.output<T>>);
}

/** A group of settings (`search.*`): absent or not an object, each of its settings has its default. */
function group<S extends z.core.$ZodLooseShape>(shape: S) {
  const object = z.object(shape);
  return z.prefault(object, {} as z.input<typeof object>);
}

/**
 * One server entry as `.vscode/mcp.json` writes it: the sanitizer keeps any object. What an
 * entry may hold, with exact errors, is core/config/entry.ts's, for every source alike (the
 * editor's description of it is SERVER_ENTRY_EDITOR_SCHEMA below).
 */
export const RawServerEntrySchema = z.record(z.string(), z.unknown());
export type RawServerEntry = z.output<typeof RawServerEntrySchema>;

/** The server entry the Settings editor describes (what core/config/entry.ts accepts). */
const SERVER_ENTRY_EDITOR_SCHEMA = {
  type: 'object',
  properties: {
    type: {
      type: 'string',
      enum: ['stdio', 'http', 'sse'],
      description: 'Transport; inferred from `command` or `url` when omitted.',
    },
    command: { type: 'string', description: 'Executable to run for a stdio server.' },
    args: { type: 'array', items: { type: 'string' }, description: 'Arguments for `command`.' },
    env: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'null'] },
      description: 'Environment for `command`; `${input:id}` and `${env:NAME}` are substituted.',
    },
    envFile: { type: 'string', description: 'A .env file loaded into the environment.' },
    cwd: { type: 'string', description: 'Working directory for `command`.' },
    url: { type: 'string', description: 'URL of a streamable HTTP or SSE server.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'HTTP headers; use `${input:id}` for secrets.',
    },
    oauth: {
      type: 'object',
      required: ['clientId'],
      additionalProperties: false,
      properties: {
        clientId: {
          type: 'string',
          description:
            'Client id registered with the authorization server (or the https URL of a Client ID Metadata Document).',
        },
        clientSecret: {
          type: 'string',
          description: 'Client secret of a confidential client; use `${input:id}` or `${env:NAME}`.',
        },
        scopes: {
          type: 'array',
          items: { type: 'string' },
          description: 'Scopes to request when the server names none.',
        },
      },
      markdownDescription:
        'A pre-registered OAuth client for a server that needs sign-in and offers no dynamic registration. Without it MCP Lens registers itself. Register the redirect URI `http://127.0.0.1/callback` (any port).',
    },
  },
} as const;

export const IMPORT_SOURCES = ['vscode', 'mcp-json', 'claude-desktop', 'cursor', 'settings'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Whole as the editor reads them: `mcpLens.servers`' value is one object, not a group of settings. */
const servers = setting(withDefault(z.record(z.string(), RawServerEntrySchema), {}), {
  scope: 'resource',
  order: 0,
  restricted: 'each-entry',
  editor: { additionalProperties: SERVER_ENTRY_EDITOR_SCHEMA },
  markdownDescription:
    'MCP servers that only MCP Lens starts, in the same shape as `.vscode/mcp.json` `servers`. Servers here are not also started by VS Code.',
});

const patterns = () => withDefault(z.array(z.string()), []);

/** Every setting; the key order is the manifest's. */
export const SettingsSchema = z.object({
  servers,
  include: setting(patterns(), {
    scope: 'resource',
    markdownDescription: 'Glob patterns of `server/tool` names to index (empty = all). Example: `github/*`.',
  }),
  exclude: setting(patterns(), {
    scope: 'resource',
    markdownDescription: 'Glob patterns of `server/tool` names to hide completely. Example: `*/delete_*`.',
  }),
  importFrom: setting(withDefault(z.array(z.enum(IMPORT_SOURCES)), ['vscode', 'mcp-json', 'settings']), {
    scope: 'resource',
    editor: { uniqueItems: true },
    enumDescriptions: [
      '.vscode/mcp.json',
      '.mcp.json at the workspace root',
      'Claude Desktop config',
      "Cursor: the workspace's .cursor/mcp.json and your ~/.cursor/mcp.json",
      'mcpLens.servers',
    ],
    description:
      "Where MCP Lens reads server definitions from. In a multi-root workspace every folder's files and its own mcpLens.servers are read, its servers named <folder>/<server>.",
  }),
  exposure: setting(withDefault(z.enum(EXPOSURE_MODES), 'search'), {
    scope: 'resource',
    enumDescriptions: [
      'Only the meta-tools (find_tools, call_tool, run_code, get_tool_schema, list_servers).',
      'The meta-tools plus the tools in mcpLens.pinnedTools.',
      'Every tool (no savings; for comparison).',
      'The meta-tools plus tools predicted from your usage.',
    ],
    description: 'Which tools the MCP Lens server lists to the agent.',
  }),
  pinnedTools: setting(patterns(), {
    scope: 'resource',
    description: 'Tool names always listed directly (exposure "pinned" and "predictive").',
  }),
  callTimeoutSeconds: setting(withDefault(count(1, 3600), 60), {
    scope: 'resource',
    description: 'Timeout for one upstream tool call.',
  }),
  connectTimeoutSeconds: setting(withDefault(count(1, 600), 30), {
    scope: 'resource',
    description: 'Timeout for connecting to one upstream server.',
  }),
  /** `eager`: connect every server at start; `lazy`: start a server on its first call, stop it when idle. */
  startup: setting(withDefault(z.enum(['eager', 'lazy']), 'eager'), {
    scope: 'resource',
    enumDescriptions: [
      'Connect every server when MCP Lens starts.',
      'Start a server on its first tool call (its tools are searchable from the last known catalog) and stop it after mcpLens.idleTimeoutMinutes without calls.',
    ],
    description: 'When MCP Lens starts the servers it aggregates.',
  }),
  /** Lazy start: minutes without a call after which a server is stopped. */
  idleTimeoutMinutes: setting(withDefault(count(1, 1440), 10), {
    scope: 'resource',
    description: 'With lazy startup: minutes without a call after which a server is stopped.',
  }),
  search: group({
    inlineSchemas: setting(withDefault(count(0, 50), 3), {
      scope: 'resource',
      description:
        "How many of find_tools' top hits carry their input inline: a clear best match its full input schema, close top hits compact input types.",
    }),
    defaultLimit: setting(withDefault(count(1, 50), 5), {
      scope: 'resource',
      description: 'Hits find_tools returns when the agent gives no limit.',
    }),
    /**
     * Every find_tools → call of an agent teaches the ranking the workspace's words for its tools
     * (kept in the user's state folder, never sent anywhere).
     */
    learnFromUsage: setting(withDefault(z.boolean(), true), {
      scope: 'resource',
      markdownDescription:
        "Learn from this workspace's own use: when an agent calls a tool after `find_tools`, the words of its request count for that tool in later searches. Kept per workspace in your state folder (never in the workspace, never sent anywhere); see the dashboard's *Learned search* section, and **MCP Lens: Forget Learned Search** to clear it.",
    }),
  }),
  ollama: group({
    /** Unset: OLLAMA_HOST, else this default (settings.ts). */
    host: setting(withDefault(z.string().check(z.trim(), z.minLength(1)), 'http://127.0.0.1:11434'), {
      scope: 'machine-overridable',
      restart: true,
      restricted: 'gate',
      markdownDescription:
        'Ollama server for embeddings (`OLLAMA_HOST` is used when this is unset). Changing it restarts the sidecar.',
    }),
  }),
  embedding: group({
    model: setting(withDefault(z.string().check(z.trim(), z.minLength(1)), 'nomic-embed-text'), {
      scope: 'resource',
      restart: true,
      description: 'Ollama embedding model. Changing it restarts the sidecar and re-embeds every tool.',
    }),
    enabled: setting(withDefault(z.boolean(), true), {
      scope: 'resource',
      description: 'Use semantic (embedding) search besides keyword search. Without Ollama, search is keyword only.',
    }),
  }),
  usage: group({
    enabled: setting(withDefault(z.boolean(), true), {
      scope: 'resource',
      description:
        'Record which tools are called (names only, never arguments) to rank and predict tools. Stored in the workspace storage folder.',
    }),
    retentionDays: setting(withDefault(count(1, 3650), 90), {
      scope: 'resource',
      description: 'Days usage records are kept.',
    }),
  }),
  predict: group({
    minTools: setting(withDefault(count(0, 50), 3), {
      scope: 'resource',
      description: 'Fewest tools listed in "predictive" exposure.',
    }),
    /** Never below minTools (settings.ts raises it). */
    maxTools: setting(withDefault(count(1, 50), 10), {
      scope: 'resource',
      description: 'Most tools listed in "predictive" exposure.',
    }),
  }),
  /** Default cap on a call_tool or run_code result, in o200k tokens; the rest is kept as a resource. */
  maxOutputTokens: setting(withDefault(count(100, 1_000_000), 8000), {
    scope: 'resource',
    markdownDescription:
      'Most o200k tokens of a `call_tool` or `run_code` result the agent receives (its `max_output_tokens` argument overrides it). A longer result is cut with a note, and kept whole for the session as the resource `mcp-lens://results/<id>`.',
  }),
  /** run_code: `enabled` lists the tool; `maxTimeoutMs` bounds a script's `timeout_ms`. */
  codeMode: group({
    enabled: setting(withDefault(z.boolean(), true), {
      scope: 'resource',
      markdownDescription:
        'Offer the `run_code` meta-tool: the agent writes one JavaScript program that chains tool calls in a WebAssembly sandbox, and only its return value reaches the model. Turn it off for agents that cannot write code well or when every call must be approved one by one in the chat.',
    }),
    maxTimeoutMs: setting(withDefault(count(1000, 3_600_000), 120_000), {
      scope: 'resource',
      markdownDescription: 'Longest wall time a `run_code` script may ask for with `timeout_ms` (the default is 30 s).',
    }),
  }),
  trace: group({
    server: setting(withDefault(z.enum(['off', 'messages', 'verbose']), 'off'), {
      scope: 'window',
      description: 'Traces the messages between VS Code and the MCP Lens sidecar in the MCP Lens log.',
    }),
  }),
});

/** Every `mcpLens.*` setting, sanitized (settings.ts): what the sidecar and the core ever see. */
export type McpLensSettings = z.output<typeof SettingsSchema>;

/** One setting: its dotted key under `mcpLens.`, its schema and what the editor shows. */
export interface SettingLeaf {
  key: string;
  schema: z.ZodMiniType;
  info: SettingInfo;
}

/** The settings one by one, in the manifest's order (a group's settings in its place). */
export function settingLeaves(shape: z.core.$ZodLooseShape = SettingsSchema.shape, prefix = ''): SettingLeaf[] {
  return Object.entries(shape).flatMap(([name, schema]) => {
    const info = SETTING_INFO.get(schema);
    if (info) return [{ key: prefix + name, schema, info }];
    const inner = (schema._zod.def as { innerType?: z.ZodMiniType }).innerType;
    const nested = inner && (inner._zod.def as { shape?: z.core.$ZodLooseShape }).shape;
    return nested ? settingLeaves(nested, `${prefix}${name}.`) : [];
  });
}
