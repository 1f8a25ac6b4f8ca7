/**
 * What every CLI command that needs the core shares: where the workspace is, which config
 * to read, which servers the user has approved, `${input:…}` values, and the prompts on a
 * TTY for the rest. A config file named with `--config` counts as approved by the user who
 * named it; servers found in the workspace need approval on a TTY or `--trust`. Both approve
 * what is there at start: what `serve` reads later waits for approval (app/admission.ts).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { escapeForDisplay } from '../../../protocol/untrustedText';
import {
  RESTRICTED_APPROVAL_NAME,
  consentOfAllLevels,
  restrictedApprovalValue,
  restrictedValuesOf,
  sanitizeSettings,
  withoutRestricted,
  type McpLensSettings,
} from '../../../protocol/settings';
import { formatProblem } from '../core/config/resolve';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import { configFilesToWatch, readWorkspaceSettings } from '../adapters/config/loadConfig';
import { approvalsFilePath, loadApprovals, saveApprovals } from '../adapters/config/approvalStore';
import { ensurePrivateDirIfPresent } from '../adapters/privateFiles';
import { ensureWorkspaceStateDir, legacyWorkspaceState } from '../adapters/workspaceState';
import type { Lens } from '../app/lens';
import { LensApp } from '../app/lensApp';
import type { LensAppOptions } from '../app/lensAppOptions';
import type { LensControl } from '../app/lensControl';
import { MemoryToolIndex } from '../index/memoryIndex';
import type { CliOptions } from './commandLine';
import { approvalQuestion, askLine, askYesNo, canPrompt, restrictedQuestion } from './prompt';
import { terminalOAuth } from './terminalSignIn';
import type { TeamState } from '../adapters/state/teamState';
import { workspaceVerdict, type Verdict } from './workspaceVerdict';

/** Options shared by every command that opens the workspace (commandLine.ts). */
export const WORKSPACE_OPTIONS = {
  workspace: { short: 'w', value: 'DIR', help: 'workspace folder (default: the current directory)' },
  config: {
    short: 'c',
    value: 'FILE',
    help: 'read only this MCP config file (.vscode/mcp.json, .mcp.json or mcpServers format); naming it approves its servers',
  },
  trust: {
    help: 'start servers found in the workspace without asking (those there at start: what is added or widened while serving still waits for approval)',
  },
} as const satisfies CliOptions;

export interface OpenLensOptions {
  workspace?: string | undefined;
  config?: string | undefined;
  trust?: boolean | undefined;
  log: Logger;
  /** May we prompt on the terminal? False for `serve` over stdio. */
  interactive: boolean;
  /** Keyword-only in-memory index, no store on disk (for `tools`). */
  lightweight?: boolean;
  /** Answer from the cached catalog when it matches the servers that would run (for `search`). */
  preferCachedCatalog?: boolean;
  /**
   * A long-running server (`serve`): answer at once from the last known catalog while servers
   * connect in the background, and apply config and settings file changes as they happen.
   */
  live?: boolean;
  /** Signing in to remote servers (`login`, `logout`); others only use the tokens already stored. */
  signIn?: { openBrowser: boolean };
  /** Index and launch the servers only once this settles (LensAppOptions.startAfter). */
  startAfter?: Promise<void> | undefined;
  /**
   * A team's gateway (`serve --team`): the stdio servers every person shares, and the settings
   * as a team must have them whatever the workspace says (teamSettings).
   */
  team?: { sharedServers: ReadonlySet<string> };
  /**
   * Replicas' shared state (`serve --http --state`): approvals, search lessons and sign-ins
   * live there instead of the user's files.
   */
  state?: TeamState | undefined;
}

/**
 * What a team's MCP Lens changes in the workspace's settings: nothing one person's use teaches
 * may shape what another sees, so search does not learn from use and the tools/list is not
 * predicted from the workspace's calls (both would carry one person's use to everyone).
 */
export function teamSettings(settings: McpLensSettings): McpLensSettings {
  return {
    ...settings,
    search: { ...settings.search, learnFromUsage: false },
    exposure: settings.exposure === 'predictive' ? 'search' : settings.exposure,
  };
}

/** Where approvals are read and kept: the user's file, or the team's state database. */
interface Approvals {
  load(): Record<string, string>;
  save(approvals: Record<string, string>): Promise<void>;
}

function approvalsOf(workspaceFolder: string, state: TeamState | undefined): Approvals {
  if (state) return { load: () => state.approvals.current(), save: (a) => state.approvals.save(a) };
  return {
    load: () => loadApprovals(workspaceFolder),
    save: async (a) => saveApprovals(workspaceFolder, { ...loadApprovals(workspaceFolder), ...a }),
  };
}

export async function openLens(o: OpenLensOptions): Promise<Lens & LensControl> {
  const workspaceFolder = resolve(o.workspace ?? process.cwd());
  if (!existsSync(workspaceFolder)) throw new Error(`workspace folder does not exist: ${workspaceFolder}`);
  const ws = readWorkspaceSettings(workspaceFolder);
  for (const p of ws.problems) o.log.warn(formatProblem(p, workspaceFolder));
  const ask = o.interactive && canPrompt();
  const settings = await workspaceSettings(workspaceFolder, { trust: o.trust === true, ask, log: o.log });
  // What MCP Lens learns about the workspace lives in the user's state folder, never in the
  // workspace, where a repository could ship it (adapters/workspaceState.ts).
  const storageDir = ensureWorkspaceStateDir(workspaceFolder);
  // The tool index's folder too (usage/ is checked where the usage store opens it).
  ensurePrivateDirIfPresent(join(storageDir, 'index'));
  const legacy = legacyWorkspaceState(workspaceFolder);
  if (legacy.length > 0)
    o.log.info(
      `MCP Lens keeps this workspace's catalog cache, index and usage in ${storageDir} now; ${legacy.join(', ')} are no longer read and can be deleted`,
    );
  const forTeam = o.team ? teamSettings : (s: McpLensSettings) => s;
  const approvals = approvalsOf(workspaceFolder, o.state);
  const options: LensAppOptions = {
    workspaceFolder,
    storageDir,
    settings: forTeam(settings),
    trusted: true,
    approvals: approvals.load(),
    autoApprove: o.trust === true,
    inputs: inputsFromEnv(process.env),
    log: o.log,
  };
  if (o.config) options.configFile = resolve(o.config);
  if (o.preferCachedCatalog) options.preferCachedCatalog = true;
  if (o.startAfter) options.startAfter = o.startAfter;
  if (o.live) {
    options.watch = true;
    options.waitForServers = false;
    // --trust approves the restricted values there at start, not what is written while serving.
    const atStart = o.trust === true ? restrictedApprovalValue(restrictedValuesOf(ws.settings)) : undefined;
    options.fileState = {
      files: [join(workspaceFolder, '.vscode', 'settings.json'), ...(o.state ? [] : [approvalsFilePath()])],
      // A changed restricted value is honoured only if it was approved before (no prompt while serving).
      read: () => ({
        settings: forTeam(workspaceSettingsNow(workspaceFolder, atStart, o.log)),
        approvals: approvals.load(),
      }),
    };
  }
  // Tokens from `mcp-lens login` (the user's 0600 file); a sign-in prints its address, and opens
  // the browser unless asked not to (`serve`'s dashboard button opens it).
  options.pool = {
    oauth: terminalOAuth(o.log, {
      openBrowser: o.signIn?.openBrowser ?? true,
      ...(o.state && { store: o.state.oauth }),
    }),
  };
  if (o.team) options.pool.sharedServers = o.team.sharedServers;
  if (o.state) options.sharedLessons = o.state.lessons;
  if (o.lightweight) options.index = new MemoryToolIndex('keyword only: in-memory index (no store)');
  // Asked on the terminal right below: a warning to go and run this very command would contradict the question.
  if (ask) options.asksApprovalAtStart = true;
  const app = await LensApp.start(options);
  // Another replica approved a server: it starts here too.
  o.state?.approvals.onDidChange(
    (all) => void app.approve(all).catch((err: unknown) => o.log.warn(`applying approvals: ${errorMessage(err)}`)),
  );
  if (ask) await promptForMissing(app, approvals);
  else reportPending(app, o.log);
  return app;
}

/**
 * The workspace's `mcpLens.*` settings as the CLI applies them. Restricted ones (protocol/
 * settings.ts: they send data out or change what runs) count only when approved: by --trust,
 * by an earlier approval of these exact values, or now on the terminal; otherwise they are
 * left out (OLLAMA_HOST or the default applies) and a warning says so.
 */
async function workspaceSettings(
  workspaceFolder: string,
  o: { trust: boolean; ask: boolean; log: Logger },
): Promise<McpLensSettings> {
  const read = readRestricted(workspaceFolder, () => o.trust);
  if (read.pending && o.ask && (await askYesNo(restrictedQuestion(read.pending, read.file)))) {
    saveApprovals(workspaceFolder, {
      ...loadApprovals(workspaceFolder),
      [RESTRICTED_APPROVAL_NAME]: restrictedApprovalValue(read.pending),
    });
    return read.approved;
  }
  if (read.pending) warnRestricted(read.pending, read.file, o.log);
  return read.settings;
}

/**
 * The same without asking (a file changed while serving): only an earlier approval counts, or
 * with --trust the very values there at start (`trustedAtStart`, their restrictedApprovalValue).
 */
function workspaceSettingsNow(
  workspaceFolder: string,
  trustedAtStart: string | undefined,
  log: Logger,
): McpLensSettings {
  const read = readRestricted(workspaceFolder, (values) => restrictedApprovalValue(values) === trustedAtStart);
  if (read.pending) warnRestricted(read.pending, read.file, log);
  return read.settings;
}

/** `settings` to use now; `pending` the restricted values waiting for approval, `approved` the settings with them. */
function readRestricted(
  workspaceFolder: string,
  trusted: (values: Record<string, string>) => boolean,
): { settings: McpLensSettings; approved: McpLensSettings; pending?: Record<string, string>; file: string } {
  const ws = readWorkspaceSettings(workspaceFolder);
  const raw: Record<string, unknown> =
    ws.settings && typeof ws.settings === 'object' ? { ...(ws.settings as Record<string, unknown>) } : {};
  // The CLI has no user level: the workspace's file may raise consent above the default, never lower it.
  raw.consent = consentOfAllLevels({ workspaceValue: raw.consent });
  const values = restrictedValuesOf(raw);
  const approved = sanitizeSettings(raw, process.env);
  if (Object.keys(values).length === 0 || trusted(values) || restrictedApproved(workspaceFolder, values))
    return { settings: approved, approved, file: ws.file };
  return {
    settings: sanitizeSettings(withoutRestricted(raw), process.env),
    approved,
    pending: values,
    file: ws.file,
  };
}

function restrictedApproved(workspaceFolder: string, values: Record<string, string>): boolean {
  return loadApprovals(workspaceFolder)[RESTRICTED_APPROVAL_NAME] === restrictedApprovalValue(values);
}

function warnRestricted(values: Record<string, string>, file: string, log: Logger): void {
  const keys = Object.keys(values)
    .map((k) => `mcpLens.${k}`)
    .join(', ');
  log.warn(
    `ignoring ${keys} from ${escapeForDisplay(file)}: a workspace setting that sends data out or changes what runs needs your approval ` +
      '(run `mcp-lens tools` in a terminal to review it, or pass --trust); using OLLAMA_HOST or the default instead',
  );
}

/** `MCP_LENS_INPUT_GITHUB_TOKEN` supplies `${input:github_token}` (and `${input:github-token}`). */
export function inputsFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('MCP_LENS_INPUT_') || v === undefined) continue;
    const id = k.slice('MCP_LENS_INPUT_'.length);
    out[id] = v;
    out[id.toLowerCase()] = v;
    out[id.toLowerCase().replace(/_/g, '-')] = v;
  }
  return out;
}

async function promptForMissing(app: LensControl, approvals: Approvals): Promise<void> {
  const missing = app.missingInputs();
  if (missing.length) {
    const values: Record<string, string> = {};
    for (const id of missing)
      values[id] = await askLine(`Value for \${input:${escapeForDisplay(id)}} (not echoed): `, true);
    await app.setInputs(values);
  }
  const pending = app.pendingApprovals();
  if (pending.length === 0) return;
  const approved: Record<string, string> = {};
  for (const p of pending) {
    if (await askYesNo(approvalQuestion(p))) approved[p.name] = p.fingerprint;
  }
  if (Object.keys(approved).length) {
    await approvals.save(approved);
    await app.approve(approved);
  }
}

/** Servers waiting for approval are announced by the LensApp itself (also when a reload adds one). */
function reportPending(app: LensControl, log: Logger): void {
  const missing = app.missingInputs();
  if (missing.length)
    log.warn(`missing input value(s): ${missing.map((m) => `\${input:${m}}`).join(', ')}; set MCP_LENS_INPUT_<ID>.`);
}

/**
 * The exit code and its reason for a workspace a one-shot command opened (workspaceVerdict.ts),
 * with where configuration was looked for. `configFile`: the `--config` given, if any.
 */
export function verdictOf(lens: Lens & LensControl, configFile: string | undefined): Verdict {
  return workspaceVerdict({
    servers: lens.servers(),
    problems: lens.configProblems(),
    looked: configLookedIn(lens.workspaceFolder, lens.settings(), configFile),
    workspace: lens.workspaceFolder,
  });
}

/** The files (and settings) configuration is read from, relative to the workspace where inside it. */
function configLookedIn(workspaceFolder: string, settings: McpLensSettings, configFile: string | undefined): string[] {
  const files = configFilesToWatch({
    workspaceFolder,
    settings,
    ...(configFile !== undefined ? { configFile: resolve(configFile) } : {}),
  });
  const shown = files.map((f) => {
    const inside = relative(workspaceFolder, f);
    return escapeForDisplay(inside.startsWith('..') || isAbsolute(inside) ? f : inside);
  });
  if (configFile === undefined && settings.importFrom.includes('settings'))
    shown.push('mcpLens.servers in .vscode/settings.json');
  return shown;
}

/** Prints the verdict's reason as `mcp-lens COMMAND: …` on stderr; its exit code. */
export function reportVerdict(command: string, verdict: Verdict): number {
  if (verdict.message) process.stderr.write(`mcp-lens ${command}: ${verdict.message}\n`);
  return verdict.code;
}
