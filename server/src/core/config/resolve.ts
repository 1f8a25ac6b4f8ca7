/**
 * Config resolution, pure: file texts and a context in, `LoadedConfig` out. Sources are read
 * in `mcpLens.importFrom` order (a `--config` file replaces them all); the first definition
 * of a name wins and a warning names both files; a bad entry disables that server only. In a
 * multi-root workspace each folder's files and settings are read as that folder's (folders.ts).
 */
import * as path from 'node:path';
import { parseConfigFile } from './configFile';
import { readEntry, shownServerName, type EntryInput, type EntryScope } from './entry';
import { displayPath, qualifiedName, type ConfigFolder } from './folders';
import { formatJsonPath, noLocator } from './jsonPath';
import { IMPORT_KINDS } from './sources';
import type { ConfigProblem, InputDeclaration, LoadedConfig, ServerSource } from './types';
import type { ConfigSourceKind } from '../../../../protocol/model';
import type { McpLensSettings } from '../../../../protocol/settings';

/** One config file as read from disk. */
export interface ConfigFileText {
  /** Absolute path. */
  path: string;
  kind: ConfigSourceKind;
  text: string;
  /** The workspace folder it belongs to (a folder-level source); absent for a user-level file. */
  folder?: string;
}

export interface ResolveContext {
  /** The (first) workspace folder: user-level sources and the window's `mcpLens.servers` resolve against it. */
  workspaceFolder: string;
  /**
   * Every workspace folder, from `configFolders`: labelled in a multi-root workspace, where each
   * folder's files and `servers` are its own. Absent: the one folder `workspaceFolder`.
   */
  folders?: ConfigFolder[];
  userHome: string;
  env: Record<string, string | undefined>;
  /** `${input:id}` values the caller has (from SecretStorage or a prompt). */
  inputs: Record<string, string>;
  settings: McpLensSettings;
  /** The file `mcpLens.servers` problems are reported against. */
  settingsFile: string;
  /** Text of an `envFile`, undefined when it does not exist, or why it was refused. */
  readEnvFile(path: string): string | { refused: string } | undefined;
}

interface Gathered {
  entries: EntryInput[];
  inputs: InputDeclaration[];
  problems: ConfigProblem[];
  files: string[];
}

/** The folders of a context (one unlabelled folder when it names none). */
function foldersOf(ctx: ResolveContext): ConfigFolder[] {
  return ctx.folders?.length ? ctx.folders : [{ path: ctx.workspaceFolder }];
}

/** Entries of every selected source, in precedence order. */
function gather(files: ConfigFileText[], ctx: ResolveContext): Gathered {
  const out: Gathered = { entries: [], inputs: [], problems: [], files: [] };
  const folders = foldersOf(ctx);
  const add = (f: ConfigFileText) => {
    const parsed = parseConfigFile(f.path, f.kind, f.text);
    const folder = f.folder === undefined ? undefined : folders.find((x) => x.path === f.folder);
    out.entries.push(...parsed.entries.map((e) => (folder ? { ...e, folder } : e)));
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
        out.entries.push({
          name,
          raw,
          kind: 'settings',
          file: ctx.settingsFile,
          jsonPath: ['mcpLens', 'servers', name],
          locate: noLocator,
        });
      }
      // A multi-root folder's own settings: its servers, in its .vscode/settings.json.
      for (const folder of folders) {
        const file = path.join(folder.path, '.vscode', 'settings.json');
        for (const [name, raw] of Object.entries(folder.servers ?? {})) {
          out.entries.push({
            name,
            raw,
            kind: 'settings',
            file,
            jsonPath: ['mcpLens', 'servers', name],
            locate: noLocator,
            folder,
          });
        }
      }
      continue;
    }
    for (const kind of IMPORT_KINDS[source]) files.filter((f) => f.kind === kind).forEach(add);
  }
  return out;
}

/**
 * `.vscode/mcp.json: servers.github.command: missing "command" for a stdio server`; in a
 * multi-root workspace the file after its folder's label (`api/.vscode/mcp.json: …`).
 */
export function formatProblem(problem: ConfigProblem, where: string | readonly ConfigFolder[]): string {
  const shown = displayPath(problem.file, typeof where === 'string' ? [{ path: where }] : where);
  // file:line:column, as compilers write it: terminals and editors open the file there.
  const file = problem.line !== undefined ? `${shown}:${problem.line}:${problem.column ?? 1}` : shown;
  const text = problem.note ? `${problem.message}; ${problem.note}` : problem.message;
  return problem.path ? `${file}: ${problem.path}: ${text}` : `${file}: ${text}`;
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
    folders: foldersOf(ctx),
  };
  const scope: EntryScope = {
    workspaceFolder: ctx.workspaceFolder,
    userHome: ctx.userHome,
    env: ctx.env,
    inputs: ctx.inputs,
    readEnvFile: ctx.readEnvFile,
  };
  const seen = new Map<string, ServerSource>();
  for (const entry of gathered.entries) {
    // The name it goes by (escaped when refused for hidden characters), so no two share one.
    const name = shownServerName(qualifiedName(entry.folder, entry.name));
    const first = seen.get(name);
    if (first) {
      result.problems.push(duplicateWarning(entry, name, first, result.folders));
      continue;
    }
    const r = readEntry(entry, scope);
    seen.set(name, (r.server ?? r.disabled)!.source);
    result.problems.push(...r.problems);
    if (r.server) result.servers.push(r.server);
    if (r.disabled) result.disabled.push(r.disabled);
    for (const id of r.missingInputs) if (!result.missingInputs.includes(id)) result.missingInputs.push(id);
    for (const f of r.envFiles) if (!result.files.includes(f)) result.files.push(f);
  }
  return result;
}

function duplicateWarning(
  entry: EntryInput,
  name: string,
  first: ServerSource,
  folders: readonly ConfigFolder[],
): ConfigProblem {
  const where = first.file === entry.file ? 'earlier in this file' : `in ${displayPath(first.file, folders)}`;
  return {
    severity: 'warning',
    file: entry.file,
    path: formatJsonPath(entry.jsonPath),
    message: `server "${name}" is also defined ${where} (${first.path}), which takes precedence; this definition is ignored`,
    ...entry.locate(entry.jsonPath),
  };
}
