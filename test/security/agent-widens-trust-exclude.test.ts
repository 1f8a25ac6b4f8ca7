/**
 * Agent widens trust, exclude class. A prompt-injected agent rewrites the workspace's
 * .vscode/settings.json through the filesystem server behind MCP Lens so `mcpLens.exclude` gets
 * shorter. Before, the live reload applied it: a tool refused a moment earlier ran, in the same
 * script. Now a change that would show more tools waits for the user's approval while the
 * filter last accepted stays in force (a pattern the same write adds applies at once); stderr
 * names the file and the change, list_servers shows it waiting. The user approves it on the
 * terminal running `serve --http`, or in the editor (the LSP sidecar: a restart of the sidecar
 * does not accept it; the user's own settings apply as they change).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  AcceptedToolFilterNotification,
  ApprovalNeededNotification,
  GatewayInfoRequest,
  StateChangedNotification,
  UpdateSettingsNotification,
  type SidecarInitOptions,
  type UpdateSettingsParams,
} from '../../protocol/lspProtocol';
import { TOOL_FILTER_APPROVAL_NAME, sanitizeSettings, type ToolFilterLevels } from '../../protocol/settings';
import { connectAgent } from '../fixtures/agentClient';
import { fingerprintsOf } from '../fixtures/fingerprints';
import { startSidecarProcess, type SidecarProcess } from '../fixtures/lsp/sidecarProcess';
import { cliEnv, hostileWorkspace, strongToken, type HostileWorkspace } from './hostileWorkspace';
import {
  AGENT_CAPABILITIES,
  Agent,
  WAIT_SERVER,
  filesystemServer,
  serveOnTerminal,
  serveStdio,
  text,
  type Serve,
} from './agentWorld';

const settings = (exclude: string[]) =>
  JSON.stringify({ 'mcpLens.embedding.enabled': false, 'mcpLens.exclude': exclude }, null, 2);

/** `lens.json` (the file --config names) declares the filesystem server and the script helper; the settings hide move_file. */
function world(): HostileWorkspace {
  const ws = hostileWorkspace({ '.vscode/settings.json': settings(['files/move_file']), 'a.txt': 'a' });
  writeFileSync(
    ws.path('lens.json'),
    JSON.stringify({ servers: { files: filesystemServer(ws.dir), signal: WAIT_SERVER } }),
  );
  return ws;
}

const move = (ws: HostileWorkspace, to: string) => ({ source: ws.path('a.txt'), destination: ws.path(to) });
const HELD = /\[[^\]\n]*\.vscode\/settings\.json\] not applied: [^\n]*/;

const opened: (Serve | HostileWorkspace | SidecarProcess)[] = [];
after(async () => {
  // Whatever a failed test left open (closing twice is harmless).
  for (const o of opened.reverse()) await Promise.resolve(o.close()).catch(() => undefined);
});

describe('agent-widens-trust-exclude: a shorter exclude written while serving', () => {
  test('with one call_tool: the excluded tool still refuses; a pattern added in the same write applies at once', async () => {
    const ws = world();
    opened.push(ws);
    const serve = await serveStdio(['--workspace', ws.dir, '--config', ws.path('lens.json')], cliEnv(ws));
    opened.push(serve);
    const { agent, output } = serve;
    assert.ok((await agent.call('files_move_file', move(ws, 'b.txt'))).isError, 'refused before');
    assert.ok(!(await agent.call('files_create_directory', { path: ws.path('d1') })).isError, 'allowed before');

    await agent.writeFile(ws.path('.vscode/settings.json'), settings(['files/create_directory']));
    const line = (await output.waitFor(HELD))[0];
    assert.match(line, /exclude pattern "files\/move_file" removed/);
    assert.match(line, /stay hidden until you approve/);

    const moved = await agent.call('files_move_file', move(ws, 'b.txt'));
    assert.ok(moved.isError, text(moved));
    assert.ok(!(await agent.findTools('move or rename a file')).includes('files_move_file'));
    assert.equal(readFileSync(ws.path('a.txt'), 'utf8'), 'a', 'nothing moved');
    assert.ok(
      (await agent.call('files_create_directory', { path: ws.path('d2') })).isError,
      'the narrowing part applied at once',
    );
    const row = (await agent.servers()).find((s) => s.name === 'mcpLens.toolFilter');
    assert.equal(row?.state, 'awaiting-approval', JSON.stringify(row));
    assert.match(row?.error ?? '', /"files\/move_file" removed/);
  });

  test('from a run_code script: the tool refused before the write still refuses after it, in the same script', async () => {
    const ws = world();
    opened.push(ws);
    const serve = await serveStdio(['--workspace', ws.dir, '--config', ws.path('lens.json')], cliEnv(ws));
    opened.push(serve);
    const { agent, output } = serve;
    const script = agent.runCode(`
      const attempt = async () => {
        try {
          await call_tool('files_move_file', ${JSON.stringify(move(ws, 'b.txt'))});
          return 'moved';
        } catch (e) {
          return 'refused: ' + String(e);
        }
      };
      const before = await attempt();
      await call_tool('files_write_file', { path: ${JSON.stringify(ws.path('.vscode/settings.json'))}, content: ${JSON.stringify(settings([]))} });
      // Waits until the test says MCP Lens has read the settings.
      await call_tool('signal_wait_for_file', { path: ${JSON.stringify(ws.path('read'))} });
      return { before, after: await attempt() };`);
    await output.waitFor(HELD);
    writeFileSync(ws.path('read'), '');
    const result = JSON.parse(text(await script)) as { before: string; after: string };
    assert.match(result.before, /^refused: /);
    assert.match(result.after, /^refused: /, result.after);
    assert.equal(readFileSync(ws.path('a.txt'), 'utf8'), 'a');
  });

  test('the user answers the prompt on the terminal running serve --http: then the tool runs', async () => {
    const ws = world();
    opened.push(ws);
    const serve = await serveOnTerminal(
      ['--workspace', ws.dir, '--config', ws.path('lens.json')],
      cliEnv(ws),
      strongToken(),
    );
    opened.push(serve);
    const { agent, output } = serve;
    const from = output.all.length;
    await agent.writeFile(ws.path('.vscode/settings.json'), settings([]));
    const prompt = await output.waitFor(
      /the tool filter \(mcpLens\.include \/ mcpLens\.exclude\) in .*settings\.json changed[\s\S]*?Apply it\? \[y\/N\] /,
      from,
    );
    assert.match(prompt[0], /exclude pattern "files\/move_file" removed/);
    assert.ok((await agent.call('files_move_file', move(ws, 'b.txt'))).isError, 'refused while the question is open');

    serve.type('y\r');
    await output.waitFor(/MCP Lens: the new tool filter applies\./, from);
    const moved = await agent.call('files_move_file', move(ws, 'b.txt'));
    assert.ok(!moved.isError, text(moved));
    assert.equal(readFileSync(ws.path('b.txt'), 'utf8'), 'a');
  });
});

describe('agent-widens-trust-exclude: in the editor (the LSP sidecar)', () => {
  test("a workspace change waits for the editor's approval, across a sidecar restart; the user's own settings apply at once", async () => {
    const ws = hostileWorkspace({ '.vscode/settings.json': settings(['files/move_file']), 'a.txt': 'a' });
    opened.push(ws);
    const files = { type: 'stdio', ...filesystemServer(ws.dir) };
    writeFileSync(ws.path('.vscode/mcp.json'), JSON.stringify({ servers: { files } }));
    const storage = join(ws.outside, 'storage');
    mkdirSync(storage);
    const approved = fingerprintsOf(ws.dir, { files });
    // The user's own settings hide create_directory; the workspace's file hides move_file.
    const levels = (workspace: string[], user: string[] = ['files/create_directory']): ToolFilterLevels => ({
      user: { exclude: user },
      workspace: { exclude: workspace },
    });
    const effective = (l: ToolFilterLevels) =>
      sanitizeSettings({
        embedding: { enabled: false },
        importFrom: ['vscode'],
        exclude: [...l.user.exclude!, ...l.workspace.exclude!],
      });
    const init = (approvals: Record<string, string>, l: ToolFilterLevels): SidecarInitOptions => ({
      storageDir: storage,
      workspaceFolders: [ws.dir],
      settings: effective(l),
      toolFilterLevels: l,
      trusted: true,
      approvals,
      inputs: {},
    });
    /** What VS Code sends when a settings file changes (the workspace level read from .vscode/settings.json). */
    const update = (approvals: Record<string, string>, l: ToolFilterLevels): UpdateSettingsParams => ({
      settings: effective(l),
      toolFilterLevels: l,
      approvals,
      inputs: {},
      trusted: true,
    });
    /** The catalog's size as the sidecar last pushed it; then a wait for it to grow (the update applied). */
    const tools = (sidecar: SidecarProcess) =>
      ((sidecar.seen.get(StateChangedNotification.method) ?? []).at(-1) as { stats: { tools: number } } | undefined)
        ?.stats.tools ?? 0;
    const grows = (sidecar: SidecarProcess, from: number, what: string) =>
      sidecar.next(StateChangedNotification, (p) => p.stats.tools > from, what);
    const agentOf = async (sidecar: SidecarProcess) => {
      const info = await sidecar.conn.sendRequest(GatewayInfoRequest);
      const agent = new Agent(await connectAgent(info.url, info.token, 'test-agent', AGENT_CAPABILITIES));
      await agent.ready();
      return agent;
    };

    let sidecar = await startSidecarProcess(init(approved, levels(['files/move_file'])));
    opened.push(sidecar);
    const accepted = (
      await sidecar.next(
        AcceptedToolFilterNotification,
        (p) => p.value.includes('files/move_file'),
        'the first filter accepted',
      )
    ).value;
    let agent = await agentOf(sidecar);
    assert.ok((await agent.call('files_move_file', move(ws, 'b.txt'))).isError);

    // The agent shortens the workspace's exclude; VS Code reads the file and tells the sidecar.
    await agent.writeFile(ws.path('.vscode/settings.json'), settings([]));
    const written = JSON.parse(readFileSync(ws.path('.vscode/settings.json'), 'utf8')) as Record<string, string[]>;
    const now = levels(written['mcpLens.exclude']!);
    const memory = { ...approved, [TOOL_FILTER_APPROVAL_NAME]: accepted };
    await sidecar.conn.sendNotification(UpdateSettingsNotification, update(memory, now));
    const asked = await sidecar.next(
      ApprovalNeededNotification,
      (p) => p.servers.some((s) => s.kind === 'tool-filter'),
      'the filter change is asked about',
    );
    const pending = asked.servers.find((s) => s.kind === 'tool-filter')!;
    assert.match(pending.details.join('\n'), /exclude pattern "files\/move_file" removed/);
    assert.ok((await agent.call('files_move_file', move(ws, 'b.txt'))).isError, 'still refused');

    // A sidecar restart (any settings change can cause one) starts from what was accepted.
    await agent.client.close();
    await sidecar.close();
    sidecar = await startSidecarProcess(init(memory, now));
    opened.push(sidecar);
    await sidecar.next(
      ApprovalNeededNotification,
      (p) => p.servers.some((s) => s.kind === 'tool-filter'),
      'still asked after a restart',
    );
    agent = await agentOf(sidecar);
    assert.ok((await agent.call('files_move_file', move(ws, 'b.txt'))).isError, 'still refused after a restart');

    // The user's own settings are the user's hand: dropping their pattern applies at once.
    assert.ok((await agent.call('files_create_directory', { path: ws.path('d1') })).isError);
    const before = tools(sidecar);
    await sidecar.conn.sendNotification(UpdateSettingsNotification, update(memory, levels([], [])));
    await grows(sidecar, before, "create_directory listed after the user's change");
    assert.ok(
      !(await agent.call('files_create_directory', { path: ws.path('d2') })).isError,
      "the user's own change applied",
    );
    assert.ok((await agent.call('files_move_file', move(ws, 'b.txt'))).isError, "the workspace's still waits");

    // The user allows it when VS Code asks: it applies and becomes what is accepted.
    const fewer = tools(sidecar);
    await sidecar.conn.sendNotification(
      UpdateSettingsNotification,
      update({ ...approved, [TOOL_FILTER_APPROVAL_NAME]: pending.fingerprint }, levels([], [])),
    );
    await sidecar.next(
      AcceptedToolFilterNotification,
      (p) => p.value === pending.fingerprint,
      'the approved filter is accepted',
    );
    await grows(sidecar, fewer, 'move_file listed once approved');
    const moved = await agent.call('files_move_file', move(ws, 'b.txt'));
    assert.ok(!moved.isError, text(moved));
    await agent.client.close();
    rmSync(storage, { recursive: true, force: true });
  });
});
