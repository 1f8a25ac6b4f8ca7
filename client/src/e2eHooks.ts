/**
 * Test-only hooks for the end-to-end test in code-server. They exist only in the e2e build
 * (`esbuild.mjs --e2e`, packaged by `npm run package:e2e`): everywhere else `__E2E_HOOKS__` is
 * false and esbuild leaves this module out of the bundle, so a shipped VSIX carries no switch
 * that skips approval (test/package/e2eHooks.test.ts checks). In the e2e build they are
 * registered only when MCP_LENS_E2E_OUT names a file (the e2e test sets it).
 *
 * `mcpLens.e2e.invokeTools` drives the agent-side path the way a chat agent does: it starts the
 * MCP Lens server definition through VS Code's own MCP support, waits for its tools to appear in
 * `vscode.lm.tools`, invokes `find_tools` and `call_tool` with `vscode.lm.invokeTool`, and writes
 * what happened (JSON) to that file.
 */
import { rename, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { MCP_SERVER_LABEL } from './mcpProvider';
import type { ExtensionServices } from './services';
import { errorText } from './sidecar';
import { CALL_TOOL, FIND_TOOLS, META_TOOL_NAMES } from '../../protocol/metaToolNames';

interface E2eReport {
  ok: boolean;
  steps: { step: string; ok: boolean; detail: string }[];
  lmTools: string[];
  servers: { name: string; state: string; source: string; toolCount: number }[];
  findTools?: string;
  /** How long find_tools took, invoked through VS Code (ms). */
  findToolsMs?: number;
  callTool?: string;
}

export function registerE2eHooks(s: ExtensionServices): vscode.Disposable {
  const out = process.env.MCP_LENS_E2E_OUT;
  if (!out) return new vscode.Disposable(() => undefined);
  s.log.warn('end-to-end test hooks are enabled (MCP_LENS_E2E_OUT is set)');
  // A keybinding passes one value: `{ query, arguments }` (or `args`) names what to find and call.
  return vscode.commands.registerCommand(
    'mcpLens.e2e.invokeTools',
    async (
      first?: string | { query?: string; arguments?: Record<string, unknown>; args?: Record<string, unknown> },
      second?: Record<string, unknown>,
    ) => {
      const { query, args } =
        typeof first === 'object' && first !== null
          ? { query: first.query, args: first.arguments ?? first.args }
          : { query: first, args: second };
      const report = await invokeTools(s, query ?? 'echo a message back', args ?? { message: 'hello from e2e' });
      // Whole or not at all: the test reads the file as soon as it exists.
      await writeFile(`${out}.part`, JSON.stringify(report, null, 2));
      await rename(`${out}.part`, out);
      return report.ok;
    },
  );
}

/** Finds tools for `query`, then calls the top match with `args`, as an agent would. */
async function invokeTools(s: ExtensionServices, query: string, args: Record<string, unknown>): Promise<E2eReport> {
  const report: E2eReport = { ok: false, steps: [], lmTools: [], servers: [] };
  const step = async (name: string, fn: () => Promise<string>): Promise<boolean> => {
    try {
      report.steps.push({ step: name, ok: true, detail: await fn() });
      return true;
    } catch (err) {
      report.steps.push({ step: name, ok: false, detail: errorText(err) });
      return false;
    }
  };
  const id = `${s.context.extension.id.toLowerCase()}/${MCP_SERVER_LABEL}`;
  const ok =
    (await step('sidecar ready', async () =>
      String(await withTimeout(s.sidecar.whenReady(), 60_000, 'sidecar ready')),
    )) &&
    (await step('start MCP Lens server', async () => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
      return id;
    })) &&
    (await step('tools listed', async () => (await waitForTools(60_000)).join(', '))) &&
    (await step('invoke find_tools', async () => {
      const started = Date.now();
      report.findTools = await invoke(lensTool(FIND_TOOLS), { query });
      report.findToolsMs = Date.now() - started;
      // The servers as they were when find_tools answered (a hanging one is still starting).
      report.servers = (s.sidecar.lens?.servers ?? []).map((x) => ({
        name: x.name,
        state: x.state,
        source: x.source,
        toolCount: x.toolCount,
      }));
      return report.findTools.slice(0, 200);
    })) &&
    (await step('invoke call_tool', async () => {
      const top = topMatch(report.findTools ?? '');
      report.callTool = await invoke(lensTool(CALL_TOOL), { tool_name: top, arguments: args });
      return report.callTool.slice(0, 200);
    }));
  report.lmTools = vscode.lm.tools.map((t) => t.name);
  if (report.servers.length === 0)
    report.servers = (s.sidecar.lens?.servers ?? []).map((x) => ({
      name: x.name,
      state: x.state,
      source: x.source,
      toolCount: x.toolCount,
    }));
  report.ok = ok;
  return report;
}

/** The first match's name in find_tools' JSON text. */
function topMatch(findToolsText: string): string {
  const parsed = JSON.parse(findToolsText) as { matches?: { name?: unknown }[] };
  const name = parsed.matches?.[0]?.name;
  if (typeof name !== 'string') throw new Error('find_tools returned no match');
  return name;
}

function lensTools(): vscode.LanguageModelToolInformation[] {
  return vscode.lm.tools.filter((t) => /lens/i.test(t.name) && META_TOOL_NAMES.some((m) => t.name.endsWith(m)));
}

function lensTool(suffix: string): string {
  const tool = lensTools().find((t) => t.name.endsWith(suffix));
  if (!tool) throw new Error(`no ${suffix} in vscode.lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
  return tool.name;
}

/** Waits until MCP Lens's meta-tools are registered as language model tools. */
async function waitForTools(timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = lensTools().map((t) => t.name);
    if (names.some((n) => n.endsWith(FIND_TOOLS)) && names.some((n) => n.endsWith(CALL_TOOL))) return names;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `MCP Lens tools did not appear in vscode.lm.tools within ${timeoutMs} ms; have: ${vscode.lm.tools.map((t) => t.name).join(', ')}`,
  );
}

async function invoke(name: string, input: object): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  try {
    const result = await withTimeout(
      Promise.resolve(vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token)),
      60_000,
      name,
    );
    return result.content
      .map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : JSON.stringify(p)))
      .join('\n');
  } finally {
    cts.dispose();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Test-only: the end-to-end test sets both variables so servers in its fixture workspace start
 * without the modal approval prompt: `1` approves every server, a comma-separated list only
 * those (the others get the real prompt). Both are needed, so a stray one does nothing.
 */
export function e2eAutoApprove(): (name: string) => boolean {
  const value = process.env.MCP_LENS_E2E_AUTO_APPROVE;
  if (!value || !process.env.MCP_LENS_E2E_OUT) return () => false;
  if (value === '1') return () => true;
  const names = new Set(value.split(',').map((n) => n.trim()));
  return (name) => names.has(name);
}
