/**
 * The file-system side of config loading: finds and reads the config files the settings
 * select (or the one `--config` file), then hands their texts to the pure `resolveConfig`.
 * A missing file is simply not a source; an unreadable one is a problem, not an exception.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { parseTree, type ParseError } from 'jsonc-parser';
import { parseConfigFile } from '../../core/config/configFile';
import { configFolders, type FolderInput } from '../../core/config/folders';
import { resolveConfig, type ConfigFileText } from '../../core/config/resolve';
import { configCandidates } from '../../core/config/sources';
import type { ConfigProblem, LoadedConfig } from '../../core/config/types';
import type { McpLensSettings } from '../../../../protocol/settings';

import { readConfigFile } from './configFileReader';

export { readWorkspaceSettings, type WorkspaceSettings } from './workspaceSettings';

export interface LoadConfigOptions {
  workspaceFolder: string;
  /**
   * A multi-root workspace's folders (the first is `workspaceFolder`): each folder's config
   * files and own `mcpLens.servers` are read as that folder's (core/config/folders.ts).
   */
  folders?: readonly FolderInput[];
  settings: McpLensSettings;
  /** Read only this file (`servers` or `mcpServers` format) as source kind 'cli-config'. */
  configFile?: string;
  /** `${input:id}` values. */
  inputs?: Record<string, string>;
  /** Defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Defaults to os.homedir(). */
  userHome?: string;
  /** Where `mcpLens.servers` came from; defaults to `<workspace>/.vscode/settings.json`. */
  settingsFile?: string;
  /**
   * The last text of each file that parsed (file → text), kept across loads by a caller that
   * reloads on change: a file that stops parsing or cannot be read is resolved from its last
   * good text, so a half-typed edit never stops the servers it declares; its problem still says
   * where the error is. Updated in place.
   */
  lastGood?: Map<string, string>;
}

type ReadOutcome = { text: string } | { missing: true } | { problem: ConfigProblem };

/** A config file through the one reader (configFileReader.ts); `roots`: the workspace folders. */
function readText(file: string, roots: readonly string[]): ReadOutcome {
  const r = readConfigFile(file, roots);
  if ('refused' in r) return { problem: { severity: 'error', file, path: '', message: `not read: ${r.refused}` } };
  return r;
}

/** The folders the options read, absolute and labelled (core/config/folders.ts). */
function foldersOf(opts: LoadConfigOptions): ReturnType<typeof configFolders> {
  const workspaceFolder = path.resolve(opts.workspaceFolder);
  return configFolders(
    (opts.folders ?? []).map((f) => ({ ...f, path: path.resolve(f.path) })),
    workspaceFolder,
  );
}

/** Every config file the options would read, existing or not (for a file watcher). */
export function configFilesToWatch(opts: LoadConfigOptions): string[] {
  if (opts.configFile) return [path.resolve(opts.configFile)];
  const env = opts.env ?? process.env;
  const folders = foldersOf(opts).map((f) => f.path);
  return configCandidates(folders, opts.settings.importFrom, opts.userHome ?? os.homedir(), env, process.platform).map(
    (c) => c.path,
  );
}

/** Reads and resolves the workspace's MCP config. Never throws. */
export function loadWorkspaceConfig(opts: LoadConfigOptions): LoadedConfig {
  const folders = foldersOf(opts);
  const workspaceFolder = folders[0]!.path;
  const env = opts.env ?? process.env;
  const userHome = opts.userHome ?? os.homedir();
  const files: ConfigFileText[] = [];
  const problems: ConfigProblem[] = [];
  const candidates: { kind: ConfigFileText['kind']; path: string; folder?: string }[] = opts.configFile
    ? [{ kind: 'cli-config' as const, path: path.resolve(opts.configFile) }]
    : configCandidates(
        folders.map((f) => f.path),
        opts.settings.importFrom,
        userHome,
        env,
        process.platform,
      );
  const kept: ConfigFileText[] = [];
  const roots = folders.map((f) => f.path);
  for (const c of candidates) {
    const r = readText(c.path, roots);
    const good = opts.lastGood?.get(c.path);
    const at = { path: c.path, kind: c.kind, ...(c.folder !== undefined ? { folder: c.folder } : {}) };
    if ('text' in r && (!good || parses(r.text))) {
      opts.lastGood?.set(c.path, r.text);
      files.push({ ...at, text: r.text });
    } else if (good !== undefined && !('missing' in r)) {
      // Broken now, good before: keep running what it declared, and say why.
      if ('problem' in r) problems.push({ ...r.problem, note: KEEPING });
      else kept.push({ ...at, text: r.text });
      files.push({ ...at, text: good });
    } else {
      if ('missing' in r) opts.lastGood?.delete(c.path);
      if ('problem' in r) problems.push(r.problem);
      else if (c.kind === 'cli-config')
        problems.push({ severity: 'error', file: c.path, path: '', message: 'config file not found' });
    }
  }
  const loaded = resolveConfig(files, {
    workspaceFolder,
    folders,
    userHome,
    env,
    inputs: opts.inputs ?? {},
    // With --config nothing else is a source, even when that file turns out to be missing.
    settings: opts.configFile ? { ...opts.settings, importFrom: [] } : opts.settings,
    settingsFile: opts.settingsFile ?? path.join(workspaceFolder, '.vscode', 'settings.json'),
    readEnvFile: (file) => {
      const r = readConfigFile(file, roots);
      return 'text' in r ? r.text : 'refused' in r ? r : undefined;
    },
  });
  return { ...loaded, problems: [...problems, ...keptProblems(kept), ...loaded.problems] };
}

function parses(text: string): boolean {
  if (text.trim() === '') return false;
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0;
}

/** The syntax errors of files resolved from their last good text, saying so. */
function keptProblems(kept: ConfigFileText[]): ConfigProblem[] {
  return kept.flatMap((f): ConfigProblem[] => {
    // An editor that truncates before writing shows an empty file for a moment.
    if (f.text.trim() === '')
      return [{ severity: 'warning', file: f.path, path: '', message: 'the file is empty', note: KEEPING }];
    return parseConfigFile(f.path, f.kind, f.text)
      .problems.filter((p) => p.path === '')
      .map((p) => ({ ...p, note: KEEPING }));
  });
}

const KEEPING = 'MCP Lens keeps running the servers of its last valid version';
