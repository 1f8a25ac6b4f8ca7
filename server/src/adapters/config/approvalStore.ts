/**
 * The CLI's record of approved servers: one JSON file, `{ "<absolute workspace folder>":
 * { "<server name>": "<fingerprint>" } }`, at `$MCP_LENS_APPROVALS_FILE`, else
 * `$XDG_CONFIG_HOME/mcp-lens/approvals.json`, else `~/.config/mcp-lens/approvals.json`.
 * Written atomically (writeFileAtomic) with mode 0600 in a 0700 folder. It holds only
 * fingerprints, never definitions or secrets. An unreadable or corrupt file reads as "nothing
 * approved" (fail closed) and is replaced on the next save.
 */
import { mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../atomicFile';
import { errorMessage } from '../../core/errorMessage';
import { readConfigFile } from './configFileReader';

export type ApprovalMap = Record<string, string>;
type ApprovalsFile = Record<string, ApprovalMap>;

/** Where approvals live for this environment. */
export function approvalsFilePath(
  env: Record<string, string | undefined> = process.env,
  userHome: string = os.homedir(),
): string {
  if (env.MCP_LENS_APPROVALS_FILE) return path.resolve(env.MCP_LENS_APPROVALS_FILE);
  const configHome =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(userHome, '.config');
  return path.join(configHome, 'mcp-lens', 'approvals.json');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keeps only `workspace → { name: fingerprint }` string pairs from whatever the file holds. */
function readAll(file: string): ApprovalsFile {
  // Through the one reader: a FIFO or a device there must not hang or fill memory.
  const read = readConfigFile(file);
  let raw: unknown;
  try {
    raw = 'text' in read ? JSON.parse(read.text) : {};
  } catch {
    return {};
  }
  const out: ApprovalsFile = {};
  if (!isRecord(raw)) return out;
  for (const [workspace, map] of Object.entries(raw)) {
    if (!isRecord(map)) continue;
    const clean: ApprovalMap = {};
    for (const [name, fp] of Object.entries(map)) if (typeof fp === 'string') clean[name] = fp;
    out[workspace] = clean;
  }
  return out;
}

/** Approved fingerprints for one workspace folder (server name → fingerprint). */
export function loadApprovals(workspaceFolder: string, file: string = approvalsFilePath()): ApprovalMap {
  const all = readAll(file);
  const key = path.resolve(workspaceFolder);
  return Object.prototype.hasOwnProperty.call(all, key) ? { ...all[key] } : {};
}

/**
 * Replaces one workspace's approvals (pass the merged map to add to them) and writes the
 * file atomically. Throws on I/O failure, with the file named.
 */
export function saveApprovals(
  workspaceFolder: string,
  approvals: ApprovalMap,
  file: string = approvalsFilePath(),
): void {
  const all = readAll(file);
  const key = path.resolve(workspaceFolder);
  if (Object.keys(approvals).length === 0) delete all[key];
  else all[key] = { ...approvals };
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomic(file, JSON.stringify(all, null, 2) + '\n', 0o600);
  } catch (err) {
    throw new Error(`cannot save approvals to ${file}: ${errorMessage(err)}`);
  }
}
