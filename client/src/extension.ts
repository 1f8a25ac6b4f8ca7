/**
 * The extension's composition root: builds one context (log, sidecar, secrets, approvals),
 * registers commands, the MCP server definition provider and the feedback surfaces, and starts
 * the sidecar — only where there is MCP configuration to aggregate (or when a command or VS
 * Code's MCP support asks for MCP Lens): otherwise it stays dormant and costs nothing.
 * Activation failure is shown, logged and rethrown.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  AcceptedToolFilterNotification,
  ApprovalNeededNotification,
  ConfigProblemsNotification,
  InputsNeededNotification,
  UpdateSettingsNotification,
  type SidecarInitOptions,
} from '../../protocol/lspProtocol';
import { Approvals } from './approvals';
import { registerCommands } from './commands/register';
import { ConfigDiagnostics } from './configDiagnostics';
import { watchDuplicates } from './duplicates';
import { e2eAutoApprove, registerE2eHooks } from './e2eHooks';
import { trackIndexProgress } from './indexProgress';
import { InputStore } from './inputStore';
import { hasMcpConfiguration, watchForConfiguration } from './mcpConfigPresence';
import { registerMcpProvider } from './mcpProvider';
import { ReadOnlyDocuments } from './readOnlyDocuments';
import type { ExtensionServices } from './services';
import { initRestrictedSettings, restrictedGate, reviewRestrictedSettings } from './restrictedSettings';
import {
  SECTION,
  SettingsProblems,
  changeKind,
  readSettings,
  toolFilterLevels,
  workspaceFolderInfos,
} from './settingsReader';
import { Sidecar, errorText } from './sidecar';
import { createStatusBar } from './statusBar';
import { registerOAuthBridge } from './oauthBridge';

let services: ExtensionServices | undefined;

/** The shared context, and whether the sidecar was started (this activation's own business). */
type Services = ExtensionServices & { isStarted(): boolean };

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionServices> {
  const log = vscode.window.createOutputChannel('MCP Lens', { log: true });
  context.subscriptions.push(log);
  try {
    services = await build(context, log);
    return services;
  } catch (err) {
    log.error(`activation failed: ${errorText(err)}`);
    void vscode.window
      .showErrorMessage(`MCP Lens failed to start: ${errorText(err)}`, 'Show Logs')
      .then((p) => p && log.show());
    throw err;
  }
}

export async function deactivate(): Promise<void> {
  await services?.sidecar.stop();
  services = undefined;
}

async function build(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<ExtensionServices> {
  const s = await createServices(context, log);
  const diagnostics = new ConfigDiagnostics();
  registerOAuthBridge(s.sidecar, context.secrets, log);
  answerSidecar(s, diagnostics);
  context.subscriptions.push(
    s.sidecar,
    s.docs,
    diagnostics,
    s.approvals,
    ...registerCommands(s),
    registerMcpProvider(s.sidecar, s.ensureStarted),
    createStatusBar(s.sidecar, s.approvals),
    trackIndexProgress(s.sidecar),
    watchDuplicates(context, s.sidecar, s.approvals),
    __E2E_HOOKS__ ? registerE2eHooks(s) : new vscode.Disposable(() => undefined),
  );
  const wake = await startWhenConfigured(context, s);
  followWorkspace(context, s, wake);
  guardRestrictedSettings(context, s);
  return s;
}

/** What every part shares: the stores, the sidecar and how it is started and told of changes. */
async function createServices(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<Services> {
  const inputs = new InputStore(context.secrets);
  await inputs.load();
  // Test-only hooks exist in the e2e build alone (esbuild.mjs --e2e); elsewhere this is `false` and they are not in the bundle.
  const approvals = new Approvals(context.workspaceState, __E2E_HOOKS__ ? e2eAutoApprove() : () => false);
  initRestrictedSettings(context.workspaceState);
  const storage = context.storageUri ?? context.globalStorageUri;
  await vscode.workspace.fs.createDirectory(storage);
  // The gateway's token and port outlive sidecar restarts, so VS Code's server definition does.
  const gateway: { token: string; port?: number } = { token: randomBytes(32).toString('base64url') };
  const problems = new SettingsProblems((m) => log.warn(`settings: ${m}`));
  const initOptions = (): SidecarInitOptions => ({
    storageDir: storage.fsPath,
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    folders: workspaceFolderInfos(),
    settings: readSettings(problems),
    toolFilterLevels: toolFilterLevels(),
    trusted: vscode.workspace.isTrusted,
    approvals: approvals.all(),
    inputs: inputs.all(),
    gateway: { ...gateway },
  });
  const sidecar = new Sidecar({ serverModule: context.asAbsolutePath('dist/server.js'), log, initOptions });
  sidecar.onDidChangeGateway((info) => {
    const port = info ? Number(new URL(info.url).port) : undefined;
    if (port) gateway.port = port;
  });
  const pushSettings = async (): Promise<void> => {
    const { storageDir: _, workspaceFolders: __, gateway: ___, ...params } = initOptions();
    await sidecar.notify(UpdateSettingsNotification, { ...params, folders: params.folders ?? [] });
  };
  let started: Promise<void> | undefined;
  const ensureStarted = (): Promise<void> => {
    started ??= sidecar.start().catch((err: unknown) => {
      started = undefined;
      void vscode.window
        .showErrorMessage(`MCP Lens: the sidecar did not start: ${errorText(err)}`, 'Show Logs')
        .then((p) => p && log.show());
    });
    return started;
  };
  const docs = new ReadOnlyDocuments();
  return { context, log, sidecar, inputs, approvals, docs, pushSettings, ensureStarted, isStarted: () => !!started };
}

/** What the sidecar asks of the editor: approvals, inputs, diagnostics, the accepted tool filter. */
function answerSidecar(s: ExtensionServices, diagnostics: ConfigDiagnostics): void {
  s.sidecar.onNotification(ApprovalNeededNotification, (p) => {
    void s.approvals.onNeeded(p).then(async (changed) => {
      if (changed) await s.pushSettings();
    });
  });
  s.sidecar.onNotification(InputsNeededNotification, (p) => {
    void s.inputs.ask(p).then(async (added) => {
      if (added) await s.pushSettings();
    });
  });
  s.sidecar.onNotification(ConfigProblemsNotification, (p) => void diagnostics.show(p));
  s.sidecar.onNotification(AcceptedToolFilterNotification, (p) => void s.approvals.recordAcceptedToolFilter(p.value));
  s.sidecar.onDidChangeState((state) => {
    s.log.info(`sidecar ${state}`);
    if (state !== 'running') diagnostics.clear();
  });
}

/**
 * Starts the sidecar now if the window has MCP configuration; otherwise stays dormant and starts
 * it once some appears. Activation does not wait for the sidecar: the status bar and the
 * provider follow its state. Returns what wakes a dormant extension.
 */
async function startWhenConfigured(context: vscode.ExtensionContext, s: Services): Promise<() => Promise<void>> {
  const wakeIfConfigured = async (): Promise<void> => {
    if (s.isStarted() || !(await hasMcpConfiguration(readSettings()))) return;
    dormant.dispose();
    void s.ensureStarted();
  };
  const dormant = watchForConfiguration(readSettings(), () => void wakeIfConfigured());
  context.subscriptions.push(dormant);
  if (await hasMcpConfiguration(readSettings())) {
    dormant.dispose();
    void s.ensureStarted();
  } else {
    s.log.info(
      'no MCP configuration in this window (.vscode/mcp.json, .mcp.json, mcpLens.servers): MCP Lens waits until one appears or a command needs it',
    );
  }
  return wakeIfConfigured;
}

/** Settings, trust and folders changing: a live update, a restart, or waking a dormant extension. */
function followWorkspace(context: vscode.ExtensionContext, s: Services, wakeIfConfigured: () => Promise<void>): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      const kind = changeKind(e);
      if (!s.isStarted()) {
        if (kind !== 'none') void wakeIfConfigured();
        return;
      }
      if (kind === 'restart')
        void s.sidecar
          .restart()
          .catch((err: unknown) => s.log.error(`restart after a settings change: ${errorText(err)}`));
      else if (kind === 'update') void s.pushSettings();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void s.pushSettings()),
    vscode.workspace.onDidChangeWorkspaceFolders(() =>
      s.isStarted() ? void s.sidecar.restart() : void wakeIfConfigured(),
    ),
  );
}

/**
 * A workspace's restricted settings (ollama.host) are used only once allowed: asked here, at
 * start and whenever they or the trust change; allowing restarts the sidecar with them.
 */
function guardRestrictedSettings(context: vscode.ExtensionContext, s: Services): void {
  const review = async (): Promise<void> => {
    if (
      (await reviewRestrictedSettings(restrictedGate(vscode.workspace.getConfiguration(SECTION)), s.log)) &&
      s.isStarted()
    )
      await s.sidecar.restart();
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && void review()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void review()),
  );
  void review();
}
