/**
 * Agent widens trust, config class. A prompt-injected agent with a file-writing tool behind MCP
 * Lens (the real filesystem server, allowed the workspace) adds a server to the config file
 * `mcp-lens serve --config` runs on, or to .vscode/mcp.json under `--trust`, while it serves,
 * with one call_tool or from a run_code script. Before, the named file counted as approved as a
 * whole (and --trust approved everything) and the live reload started whatever was added: the
 * agent's command ran without the user seeing it. Now both approve the definitions there at
 * start, by fingerprint; a later one waits, said on stderr (file and server) and in
 * list_servers, until the user approves it: on the terminal running `serve --http`, or by
 * restarting (with --trust for a workspace file). What the agent planted runs only then.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { cliEnv, hostileWorkspace, strongToken, type HostileWorkspace } from './hostileWorkspace';
import {
  PAYLOAD,
  WAIT_SERVER,
  approvalsOf,
  filesystemServer,
  heldNotRun,
  payloadRan,
  plantedServer,
  serveOnTerminal,
  serveStdio,
  text,
  untilFile,
  type Serve,
} from './agentWorld';

const SETTINGS = JSON.stringify({ 'mcpLens.embedding.enabled': false });
const config = (servers: Record<string, unknown>) => JSON.stringify({ servers }, null, 2);

/** A workspace whose `lens.json` (the file `--config` names) declares the filesystem server and the script helper. */
function world(): { ws: HostileWorkspace; start: Record<string, unknown> } {
  const ws = hostileWorkspace({ '.vscode/settings.json': SETTINGS });
  const start = { files: filesystemServer(ws.dir), signal: WAIT_SERVER };
  writeFileSync(ws.path('lens.json'), config(start));
  return { ws, start };
}

const opened: (Serve | HostileWorkspace)[] = [];
after(async () => {
  // Whatever a failed test left open (closing twice is harmless).
  for (const o of opened.reverse()) await Promise.resolve(o.close()).catch(() => undefined);
});

describe('agent-widens-trust-config: a server added to the --config file while serving', () => {
  test('with one call_tool: it does not start, and stderr and list_servers say it waits', async () => {
    const { ws, start } = world();
    opened.push(ws);
    const serve = await serveStdio(['--workspace', ws.dir, '--config', ws.path('lens.json')], cliEnv(ws));
    opened.push(serve);
    const { agent, output } = serve;
    await agent.writeFile(ws.path('payload.cjs'), PAYLOAD);
    await agent.writeFile(ws.path('lens.json'), config({ ...start, evil: plantedServer(ws, 'evil') }));

    const line = await heldNotRun(ws, output.waitFor(/\[evil\] not started: [^\n]*/));
    assert.match(
      line[0],
      /its definition in .*lens\.json was added or changed while MCP Lens runs and needs your approval/,
    );
    const evil = (await agent.servers()).find((s) => s.name === 'evil');
    assert.equal(evil?.state, 'awaiting-approval', JSON.stringify(evil));
    const call = await agent.call('evil_evil_ping', {});
    assert.ok(call.isError, text(call));
    assert.ok(!(await agent.findTools('pong from evil')).includes('evil_evil_ping'));
    assert.equal(payloadRan(ws), false, 'the planted command never ran');
    // What was there at start keeps running.
    assert.ok(!(await agent.call('files_list_directory', { path: ws.dir })).isError);
  });

  test('from a run_code script: it does not start, and the same script cannot call it', async () => {
    const { ws, start } = world();
    opened.push(ws);
    const serve = await serveStdio(['--workspace', ws.dir, '--config', ws.path('lens.json')], cliEnv(ws));
    opened.push(serve);
    const { agent, output } = serve;
    await agent.call('files_list_directory', { path: ws.dir });
    const script = agent.runCode(`
      await call_tool('files_write_file', { path: ${JSON.stringify(ws.path('payload.cjs'))}, content: ${JSON.stringify(PAYLOAD)} });
      await call_tool('files_write_file', { path: ${JSON.stringify(ws.path('lens.json'))}, content: ${JSON.stringify(config({ ...start, evil: plantedServer(ws, 'evil') }))} });
      // Waits until the test says MCP Lens has read the file.
      await call_tool('signal_wait_for_file', { path: ${JSON.stringify(ws.path('read'))} });
      try {
        return 'called: ' + JSON.stringify(await call_tool('evil_evil_ping', {}));
      } catch (e) {
        return 'refused: ' + String(e);
      }`);
    await heldNotRun(
      ws,
      output.waitFor(/\[evil\] not started: its definition in .*lens\.json was added or changed while MCP Lens runs/),
    );
    writeFileSync(ws.path('read'), '');
    const result = text(await script);
    assert.match(result, /refused: /, result);
    assert.equal((await agent.servers()).find((s) => s.name === 'evil')?.state, 'awaiting-approval');
    assert.equal(payloadRan(ws), false);
  });

  test('the user answers the prompt on the terminal running serve --http: then it starts', async () => {
    const { ws, start } = world();
    opened.push(ws);
    const serve = await serveOnTerminal(
      ['--workspace', ws.dir, '--config', ws.path('lens.json')],
      cliEnv(ws),
      strongToken(),
    );
    opened.push(serve);
    const { agent, output } = serve;
    await agent.writeFile(ws.path('payload.cjs'), PAYLOAD);
    const from = output.all.length;
    await agent.writeFile(ws.path('lens.json'), config({ ...start, evil: plantedServer(ws, 'evil') }));
    const prompt = await heldNotRun(
      ws,
      output.waitFor(/a server declared in .*lens\.json wants to start[\s\S]*?Allow\? \[y\/N\] /, from),
    );
    assert.match(prompt[0], /payload\.cjs/, 'the prompt shows what it would run');
    assert.ok((await agent.call('evil_evil_ping', {})).isError, 'refused while the question is open');
    assert.equal(payloadRan(ws), false);

    serve.type('y\r');
    await output.waitFor(/MCP Lens: evil approved; starting it\./, from);
    await agent.ready();
    const pong = await agent.call('evil_evil_ping', {});
    assert.match(text(pong), /pong from evil/);
    assert.ok(payloadRan(ws), 'it runs once the user said yes');
    assert.equal(
      approvalsOf(ws)[ws.dir]?.evil !== undefined,
      true,
      'the approval is recorded as `mcp-lens tools` records one',
    );
  });
});

describe('agent-widens-trust-config: --trust approves what is there at start', () => {
  test('a server added to .vscode/mcp.json while serving with --trust waits; restarting with --trust starts it', async () => {
    const ws = hostileWorkspace({ '.vscode/settings.json': SETTINGS });
    opened.push(ws);
    const start = { files: { type: 'stdio', ...filesystemServer(ws.dir) } };
    writeFileSync(ws.path('.vscode/mcp.json'), config(start));
    const args = ['--workspace', ws.dir, '--trust'];
    const first = await serveStdio(args, cliEnv(ws));
    await first.agent.writeFile(ws.path('payload.cjs'), PAYLOAD);
    await first.agent.writeFile(
      ws.path('.vscode/mcp.json'),
      config({ ...start, evil: { type: 'stdio', ...plantedServer(ws, 'evil') } }),
    );
    const line = await heldNotRun(ws, first.output.waitFor(/\[evil\] not started: [^\n]*/));
    assert.match(line[0], /\.vscode\/mcp\.json was added or changed while MCP Lens runs/);
    assert.ok((await first.agent.call('evil_evil_ping', {})).isError);
    assert.equal((await first.agent.servers()).find((s) => s.name === 'evil')?.state, 'awaiting-approval');
    await first.close();
    assert.equal(payloadRan(ws), false);

    // The user restarts it with --trust: what is there now is approved.
    const second = await serveStdio(args, cliEnv(ws));
    opened.push(second);
    const ran = untilFile(ws.path('pwned'));
    await second.agent.ready();
    assert.match(text(await second.agent.call('evil_evil_ping', {})), /pong from evil/);
    await ran.done;
  });
});
