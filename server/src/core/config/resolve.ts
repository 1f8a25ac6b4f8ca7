/**
 * Config resolution, pure: file texts and a context in, `LoadedConfig` out. Sources are read
 * in `mcpLens.importFrom` order (a `--config` file replaces them all); the first definition
 * of a name wins and a warning names both files; a bad entry disables that server only.
 */
import * as path from 'node:path';
import { parseConfigFile } from './configFile';
import { readEntry, type EntryInput, type EntryScope } from './entry';
import { formatJsonPath, noLocator } from './jsonPath';
import { IMPORT_KIND } from './sources';
import type { ConfigProblem, InputDeclaration, LoadedConfig, ServerSource } from './types';
import type { ConfigSourceKind } from '../../../../protocol/model';
import type { McpLensSettings } from '../../../../protocol/settings';

/** One config file as read from disk. */
export interface ConfigFileText {
  /** Absolute path. */
  path: string;
  kind: ConfigSourceKind;
  text: string;
}

export interface ResolveContext {
  workspaceFolder: string;
  userHome: string;
  env: Record<string, string | undefined>;
  /** `${input:id}` values the caller has (from SecretStorage or a prompt). */
  inputs: Record<string, string>;
  settings: McpLensSettings;
  /** The file `mcpLens.servers` problems are reported against. */
  settingsFile: string;
  /** Text of an `envFile`, or undefined when it does not exist. */
  readEnvFile(path: string): string | undefined;
}

interface Gathered {
  entries: EntryInput[];
  inputs: InputDeclaration[];
  problems: ConfigProblem[];
  files: string[];
}

/** Entries of every selected source, in precedence order. */
function gather(files: ConfigFileText[], ctx: ResolveContext): Gathered {
  const out: Gathered = { entries: [], inputs: [], problems: [], files: [] };
  const add = (f: ConfigFileText) => {
    const parsed = parseConfigFile(f.path, f.kind, f.text);
    out.entries.push(...parsed.entries);
    out.inputs.push(...parsed.inputs);
    out.problems.push(...parsed.problems);
    out.files.push(f.path);
  };
  const cli = files.filter((f) => f.kind === 'cli-config');
  if (cli.length > 0) {
    cli.forEach(add);
    return out;
  }
  for (const source of new Set(ctx.settings.importFrom)) {
    if (source === 'settings') {
      for (const [name, raw] of Object.entries(ctx.settings.servers)) {
        out.entries.push({ name, raw, kind: 'settings', file: ctx.settingsFile, jsonPath: ['mcpLens', 'servers', name], locate: noLocator });
      }
      continue;
    }
    files.filter((f) => f.kind === IMPORT_KIND[source]).forEach(add);
  }
  return out;
}

/** Shows a file relative to the workspace when it is inside it, else absolute. */
function displayFile(file: string, workspaceFolder: string): string {
  const rel = path.relative(workspaceFolder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

/** `.vscode/mcp.json: servers.github.command: missing "command" for a stdio server` */
export function formatProblem(problem: ConfigProblem, workspaceFolder: string): string {
  const file = displayFile(problem.file, workspaceFolder);
  return problem.path ? `${file}: ${problem.path}: ${problem.message}` : `${file}: ${problem.message}`;
}

/** Resolves every selected source into servers, disabled servers and problems. Never throws. */
export function resolveConfig(files: ConfigFileText[], ctx: ResolveContext): LoadedConfig {
  const gathered = gather(files, ctx);
  const result: LoadedConfig = {
    servers: [],
    disabled: [],
    problems: [...gathered.problems],
    inputs: gathered.inputs,
    missingInputs: [],
    include: [...ctx.settings.include],
    exclude: [...ctx.settings.exclude],
    files: [...gathered.files],
  };
  const scope: EntryScope = { workspaceFolder: ctx.workspaceFolder, userHome: ctx.userHome, env: ctx.env, inputs: ctx.inputs, readEnvFile: ctx.readEnvFile };
  const seen = new Map<string, ServerSource>();
  for (const entry of gathered.entries) {
    const first = seen.get(entry.name);
    if (first) {
      result.problems.push(duplicateWarning(entry, first, ctx.workspaceFolder));
      continue;
    }
    const r = readEntry(entry, scope);
    seen.set(entry.name, (r.server ?? r.disabled)!.source);
    result.problems.push(...r.problems);
    if (r.server) result.servers.push(r.server);
    if (r.disabled) result.disabled.push(r.disabled);
    for (const id of r.missingInputs) if (!result.missingInputs.includes(id)) result.missingInputs.push(id);
    for (const f of r.envFiles) if (!result.files.includes(f)) result.files.push(f);
  }
  return result;
}

function duplicateWarning(entry: EntryInput, first: ServerSource, workspaceFolder: string): ConfigProblem {
  const where = first.file === entry.file ? 'earlier in this file' : `in ${displayFile(first.file, workspaceFolder)}`;
  return {
    severity: 'warning',
    file: entry.file,
    path: formatJsonPath(entry.jsonPath),
    message: `server "${entry.name}" is also defined ${where} (${first.path}), which takes precedence; this definition is ignored`,
    ...entry.locate(entry.jsonPath),
  };
}
