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
  type UpdateSettingsParams,
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
import { SECTION, changeKind, readSettings, toolFilterLevels, workspaceFolderInfos } from './settingsReader';
import { Sidecar, errorText } from './sidecar';
import { createStatusBar } from './statusBar';
import { registerOAuthBridge } from './oauthBridge';

let services: ExtensionServices | undefined;

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
  const inputs = new InputStore(context.secrets);
  await inputs.load();
  // Test-only hooks exist in the e2e build alone (esbuild.mjs --e2e); elsewhere this is `false` and they are not in the bundle.
  const approvals = new Approvals(context.workspaceState, __E2E_HOOKS__ ? e2eAutoApprove() : () => false);
  initRestrictedSettings(context.workspaceState);
  const storage = context.storageUri ?? context.globalStorageUri;
  await vscode.workspace.fs.createDirectory(storage);
  // The gateway's token and port outlive sidecar restarts, so VS Code's server definition does.
  const gateway: { token: string; port?: number } = { token: randomBytes(32).toString('base64url') };
  const initOptions = (): SidecarInitOptions => ({
    storageDir: storage.fsPath,
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    folders: workspaceFolderInfos(),
    settings: readSettings(),
    toolFilterLevels: toolFilterLevels(),
    trusted: vscode.workspace.isTrusted,
    approvals: approvals.all(),
    inputs: inputs.all(),
    gateway: { ...gateway },
  });
  const sidecar = new Sidecar({ serverModule: context.asAbsolutePath('dist/server.js'), log, initOptions });
  const docs = new ReadOnlyDocuments();
  const diagnostics = new ConfigDiagnostics();
  const pushSettings = async (): Promise<void> => {
    const o = initOptions();
    const params: UpdateSettingsParams = {
      settings: o.settings,
      approvals: o.approvals,
      inputs: o.inputs,
      trusted: o.trusted,
      folders: o.folders ?? [],
      ...(o.toolFilterLevels && { toolFilterLevels: o.toolFilterLevels }),
    };
    await sidecar.notify(UpdateSettingsNotification, params);
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
  const s: ExtensionServices = { context, log, sidecar, inputs, approvals, docs, pushSettings, ensureStarted };
  registerOAuthBridge(sidecar, context.secrets, log);

  sidecar.onNotification(ApprovalNeededNotification, (p) => {
    void approvals.onNeeded(p).then(async (changed) => {
      if (changed) await pushSettings();
    });
  });
  sidecar.onNotification(InputsNeededNotification, (p) => {
    void inputs.ask(p).then(async (added) => {
      if (added) await pushSettings();
    });
  });
  sidecar.onNotification(ConfigProblemsNotification, (p) => void diagnostics.show(p));
  sidecar.onNotification(AcceptedToolFilterNotification, (p) => void approvals.recordAcceptedToolFilter(p.value));
  sidecar.onDidChangeState((state) => {
    log.info(`sidecar ${state}`);
    if (state !== 'running') diagnostics.clear();
  });
  sidecar.onDidChangeGateway((info) => {
    const port = info ? Number(new URL(info.url).port) : undefined;
    if (port) gateway.port = port;
  });

  context.subscriptions.push(
    sidecar,
    docs,
    diagnostics,
    approvals,
    ...registerCommands(s),
    registerMcpProvider(sidecar, ensureStarted),
    createStatusBar(sidecar, approvals),
    trackIndexProgress(sidecar),
    watchDuplicates(context, sidecar, approvals),
    __E2E_HOOKS__ ? registerE2eHooks(s) : new vscode.Disposable(() => undefined),
    vscode.workspace.onDidChangeConfiguration((e) => {
      const kind = changeKind(e);
      if (!started) {
        if (kind !== 'none') void wakeIfConfigured();
        return;
      }
      if (kind === 'restart')
        void sidecar.restart().catch((err: unknown) => log.error(`restart after a settings change: ${errorText(err)}`));
      else if (kind === 'update') void pushSettings();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void pushSettings()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => (started ? void sidecar.restart() : void wakeIfConfigured())),
  );

  // A workspace's restricted settings (ollama.host) are used only once allowed: asked here, at
  // start and whenever they or the trust change; allowing restarts the sidecar with them.
  const reviewRestricted = async (): Promise<void> => {
    if ((await reviewRestrictedSettings(restrictedGate(vscode.workspace.getConfiguration(SECTION)), log)) && started)
      await sidecar.restart();
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && void reviewRestricted()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reviewRestricted()),
  );
  void reviewRestricted();

  // Activation does not wait for the sidecar: the status bar and the provider follow its state.
  const wakeIfConfigured = async (): Promise<void> => {
    if (started || !(await hasMcpConfiguration(readSettings()))) return;
    dormant.dispose();
    void ensureStarted();
  };
  const dormant = watchForConfiguration(readSettings(), () => void wakeIfConfigured());
  context.subscriptions.push(dormant);
  if (await hasMcpConfiguration(readSettings())) {
    dormant.dispose();
    void ensureStarted();
  } else {
    log.info(
      'no MCP configuration in this window (.vscode/mcp.json, .mcp.json, mcpLens.servers): MCP Lens waits until one appears or a command needs it',
    );
  }
  return s;
}
