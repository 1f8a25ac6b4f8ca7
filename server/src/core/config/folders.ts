/**
 * The workspace folders config is read from. A single-folder workspace (and the CLI) reads one
 * folder and names servers as written. A multi-root workspace reads every folder's own config
 * files (`.vscode/mcp.json`, `.mcp.json`, `.cursor/mcp.json`) and its own `mcpLens.servers`,
 * and keeps them apart:
 *  - every server a folder declares is named `<folder>/<server>`, where `<folder>` is the
 *    folder's name in the workspace (its basename unless the `.code-workspace` file names it),
 *    with `/` and `\` made `-` and a `-2`, `-3`… suffix when two folders share a name. Always,
 *    not only when names collide: a name then never changes because another folder added a
 *    server, so approvals, usage history and `exclude` patterns written for it stay put;
 *  - user-level sources (Claude Desktop, `~/.cursor/mcp.json`) and the window's own
 *    `mcpLens.servers` (user or `.code-workspace` settings) keep their names as written;
 *  - `${workspaceFolder}` and relative paths in a folder's entries resolve against that folder;
 *  - approvals are keyed by the full name, and the fingerprint of a folder's server covers the
 *    folder's path too, so approving `a/github` approves neither `b/github` nor a folder that
 *    later takes the name `a`.
 * Pure: paths come in as values.
 */
import * as path from 'node:path';
import { oneLine } from '../../../../protocol/untrustedText';

/** A folder as the editor reports it. */
export interface FolderInput {
  /** Absolute path. */
  path: string;
  /** Its name in the workspace; defaults to the basename. */
  name?: string;
  /** `mcpLens.servers` set on this folder alone (multi-root), unsanitized entries. */
  servers?: Record<string, unknown>;
}

/** A folder config is read from. */
export interface ConfigFolder {
  /** Absolute path. */
  path: string;
  /** Multi-root only: what the names of its servers start with (`<label>/…`); unique among the folders. */
  label?: string;
  /** Multi-root only: its own `mcpLens.servers`. */
  servers?: Record<string, unknown>;
}

/** Where a server declared by one folder of a multi-root workspace came from. */
export interface FolderOrigin {
  /** The folder's absolute path. */
  path: string;
  label: string;
  /** The server's name in that folder's file or settings. */
  localName: string;
}

/**
 * The folders to read, in order, with a unique label each when there is more than one.
 * Duplicate paths are read once. An empty list is one folder at `fallback`.
 */
export function configFolders(input: readonly FolderInput[], fallback: string): ConfigFolder[] {
  const seen = new Set<string>();
  const folders = input.filter((f) => f.path !== '' && !seen.has(f.path) && seen.add(f.path));
  if (folders.length === 0) return [{ path: fallback }];
  if (folders.length === 1) return [{ path: folders[0]!.path }];
  const taken = new Set<string>();
  return folders.map((f, i) => {
    const base = labelOf(f.name?.trim() ? f.name : path.basename(f.path), i);
    let label = base;
    for (let n = 2; taken.has(label.toLowerCase()); n++) label = `${base}-${n}`;
    taken.add(label.toLowerCase());
    return { path: f.path, label, ...(f.servers && Object.keys(f.servers).length > 0 ? { servers: f.servers } : {}) };
  });
}

/** A folder name as a name prefix: no slashes, no hidden characters, no surrounding blanks, never empty. */
function labelOf(name: string, index: number): string {
  // A `.code-workspace` a repository ships names its folders: no control, bidi or invisible characters either.
  const clean = oneLine(name)
    .replace(/[\\/]+/g, '-')
    .trim();
  return clean === '' ? `folder-${index + 1}` : clean;
}

/** The name a server of this folder goes by. */
export function qualifiedName(folder: ConfigFolder | undefined, name: string): string {
  return folder?.label === undefined ? name : `${folder.label}/${name}`;
}

/** The folder a file belongs to: the deepest folder holding it. */
export function folderOf(file: string, folders: readonly ConfigFolder[]): ConfigFolder | undefined {
  let best: ConfigFolder | undefined;
  for (const f of folders) {
    const rel = path.relative(f.path, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (!best || f.path.length > best.path.length) best = f;
  }
  return best;
}

/**
 * A file as people read it: relative to its folder (`.vscode/mcp.json`), after the folder's
 * label in a multi-root workspace (`api/.vscode/mcp.json`), absolute outside every folder.
 */
export function displayPath(file: string, folders: readonly ConfigFolder[]): string {
  const folder = folderOf(file, folders);
  if (!folder) return file;
  const rel = path.relative(folder.path, file).split(path.sep).join('/');
  if (rel === '') return file;
  return folder.label === undefined ? rel : `${folder.label}/${rel}`;
}
