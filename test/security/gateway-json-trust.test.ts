/**
 * A `.mcp-lens/gateway.json` shipped in the repository made `mcp-lens stats` send
 * MCP_LENS_TOKEN to any URL it named; pid 1 counted as alive (EPERM), and terminal codes in the
 * reply were printed raw. gateway.json now counts only when MCP Lens wrote it (0600, no link),
 * its pid is a live MCP Lens process of this user, its URL is loopback, and the server there
 * proves it knows the token (HMAC of a fresh nonce) before the token is sent. Names from the
 * reply are printed escaped; a server name with terminal codes does not even reach the reply
 * (refused at config load: server-names.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  EVERYTHING,
  cliEnv,
  hostileWorkspace,
  mcpJson,
  recorder,
  runCli,
  startCli,
  strongToken,
  type HostileWorkspace,
  type Recorder,
  type RunningCli,
  killStarted,
} from './hostileWorkspace';

const TOKEN = strongToken();
const ANSI_STATS = JSON.stringify({
  servers: 1,
  tools: 1,
  exposure: 'search',
  tokens: {
    baselineTokens: 1,
    exposedTokens: 1,
    findToolsCalls: 0,
    returnedTokensTotal: 0,
    savedTokensTotal: 0,
    requests: { toolCalls: 0, toolCallSavedTokens: 0, searches: 0, searchTokens: 0 },
    perServer: [{ server: '\u001b[2J\u001b[31mPWNED', tools: 1, tokens: 1 }],
  },
});

describe('stats and a planted gateway.json', () => {
  let attacker: Recorder;
  let real: RunningCli;
  let realWs: HostileWorkspace;
  let realPid: number;
  const worlds: HostileWorkspace[] = [];

  before(async () => {
    attacker = await recorder((path) =>
      path.startsWith('/proof')
        ? { status: 200, body: JSON.stringify({ proof: '00'.repeat(32) }) }
        : { status: 200, body: ANSI_STATS },
    );
    // A real gateway of another workspace: its pid is a live MCP Lens process of this user.
    realWs = hostileWorkspace({
      '.vscode/mcp.json': mcpJson({ everything: EVERYTHING, 'evil\u001b[31mname': EVERYTHING }),
    });
    real = startCli(
      ['serve', '--http', '--workspace', realWs.dir, '--config', realWs.path('.vscode/mcp.json')],
      cliEnv(realWs, { MCP_LENS_TOKEN: TOKEN }),
    );
    await real.waitFor(/Press Ctrl\+C to stop/);
    realPid = real.child.pid!;
  });
  after(async () => {
    await real?.stop('SIGTERM').catch(() => undefined);
    killStarted();
    await attacker?.close();
    realWs?.close();
    worlds.forEach((w) => w.close());
  });

  async function statsWith(
    info: { url: string; pid: number },
    mode = 0o600,
  ): Promise<{ stdout: string; stderr: string }> {
    const ws = hostileWorkspace({
      '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }),
      '.mcp-lens/gateway.json': { text: JSON.stringify(info), mode },
    });
    worlds.push(ws);
    const run = await runCli(
      ['stats', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')],
      cliEnv(ws, { MCP_LENS_TOKEN: TOKEN }),
    );
    assert.equal(run.code, 0, run.stderr);
    return run;
  }

  const tokenSent = () => attacker.requests.some((r) => JSON.stringify(r.headers).includes(TOKEN));

  test('pid 1 (alive, EPERM or not ours) does not make a gateway', async () => {
    const run = await statsWith({ url: `${attacker.url}/mcp`, pid: 1 });
    assert.equal(attacker.requests.length, 0);
    assert.match(run.stdout, /computed now; no gateway running/);
  });

  test('a live process of this user that is not MCP Lens does not either', async () => {
    await statsWith({ url: `${attacker.url}/mcp`, pid: process.pid });
    assert.equal(attacker.requests.length, 0);
  });

  test('a real MCP Lens pid with a URL that is not the gateway: the server there cannot prove the token, so it never gets it', async () => {
    const run = await statsWith({ url: `${attacker.url}/mcp`, pid: realPid });
    assert.ok(attacker.requests.length > 0, 'the proof was asked for');
    assert.ok(
      attacker.requests.every((r) => r.path.startsWith('/proof?nonce=')),
      JSON.stringify(attacker.requests.map((r) => r.path)),
    );
    assert.equal(tokenSent(), false);
    assert.match(run.stderr, /does not prove it knows the token; not sending it there/);
    assert.ok(!run.stdout.includes('\u001b'), 'no terminal code from the reply');
  });

  test('a URL off loopback is never contacted', async () => {
    const run = await statsWith({ url: 'http://192.0.2.1:9/mcp', pid: realPid });
    assert.match(run.stderr, /is not http on 127\.0\.0\.1 or localhost/);
  });

  test('a gateway.json the repository shipped (mode 644) is not read', async () => {
    const run = await statsWith({ url: `${attacker.url}/mcp`, pid: realPid }, 0o644);
    assert.match(run.stderr, /ignoring \.mcp-lens\/gateway\.json: its mode is 644/);
    assert.equal(tokenSent(), false);
  });

  test('the real gateway of the workspace proves the token and answers; no terminal code from a server name reaches the terminal', async () => {
    const run = await runCli(
      ['stats', '--workspace', realWs.dir, '--config', realWs.path('.vscode/mcp.json')],
      cliEnv(realWs, { MCP_LENS_TOKEN: TOKEN }),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /live from http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.match(run.stdout, /^ {2}everything\s/m);
    assert.doesNotMatch(
      run.stdout,
      /evil/,
      'the server with terminal codes in its name was refused: it has no tools to count',
    );
    assert.ok(!run.stdout.includes('\u001b'), run.stdout);
    assert.equal(tokenSent(), false);
  });
});
