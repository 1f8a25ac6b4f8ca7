/**
 * `mcp-lens serve --http --team` as a person runs it (a process of the CLI from the sources):
 * where it may listen, and a team gateway signing people in through a real OpenID provider —
 * its Protected Resource Metadata, a token from the provider accepted, the call audited in the
 * file the team configuration names — and stopping on SIGTERM with its servers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, EVERYTHING, ROOT, makeWorkspace, type TestWorkspace } from '../fixtures/gatewayLens';
import { freePort, startTeamProvider, type TeamProvider } from './teamWorld';

function serve(args: string[], cwd = ROOT): ChildProcess {
  return spawn(process.execPath, [...CLI, 'serve', ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Resolves with stderr once it holds `line`; rejects when the process exits first. */
function stderrUntil(child: ChildProcess, line: RegExp): Promise<string> {
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (line.test(seen)) resolve(seen);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before ${line}: ${seen}`)));
  });
}

describe('mcp-lens serve --http: where it listens, and --team', () => {
  test('another address than loopback is refused without sign-in, and without TLS', () => {
    const bare = spawnSync(process.execPath, [...CLI, 'serve', '--http', '0', '--host', '0.0.0.0'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.notEqual(bare.status, 0);
    assert.match(bare.stderr, /needs people to sign in: --team FILE/);
    const noTls = spawnSync(
      process.execPath,
      [...CLI, 'serve', '--http', '0', '--host', '0.0.0.0', '--team', 'missing.json'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.notEqual(noTls.status, 0);
    assert.match(noTls.stderr, /needs TLS: --tls-cert FILE --tls-key FILE, or --behind-tls-proxy/);
  });

  describe('a team gateway', () => {
    let provider: TeamProvider;
    let ws: TestWorkspace;
    let child: ChildProcess;
    let resource: string;
    let teamFile: string;
    before(async () => {
      const port = await freePort();
      resource = `http://127.0.0.1:${port}/mcp`;
      provider = await startTeamProvider(resource, []);
      ws = makeWorkspace({ everything: EVERYTHING });
      teamFile = join(ws.dir, 'team.json');
      writeFileSync(
        teamFile,
        JSON.stringify({ resource, signIn: { issuer: provider.issuer }, servers: { everything: { groups: ['*'] } } }),
      );
      child = serve(['--http', String(port), '--team', teamFile, '--workspace', ws.dir, '--config', ws.configFile]);
      await stderrUntil(child, /MCP Lens serves the team on .*\n.*\n.*audited in/);
    });
    after(async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      ws?.close();
      await provider?.close();
    });

    test('metadata, a 401 without a token, a call with a token from the provider, audited', async () => {
      const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', resource))).json()) as {
        authorization_servers: string[];
      };
      assert.deepEqual(prm.authorization_servers, [provider.issuer]);
      assert.equal((await fetch(resource, { method: 'POST' })).status, 401);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${await provider.mint({ sub: 'erin' })}`,
      };
      const init = await fetch(resource, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      assert.equal(init.status, 200);
      const session = init.headers.get('mcp-session-id')!;
      await init.body?.cancel();
      const rpc = (id: number, params: Record<string, unknown>) =>
        fetch(resource, {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': session },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
        });
      const initialized = await fetch(resource, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      assert.equal(initialized.status, 202);
      // As an agent does: a search first (the first one waits for the servers' first listing).
      assert.match(await (await rpc(3, { name: 'find_tools', arguments: { query: 'echo a message' } })).text(), /echo/);
      const call = await fetch(resource, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'call_tool', arguments: { tool_name: 'everything_echo', arguments: { message: 'hi' } } },
        }),
      });
      assert.match(await call.text(), /Echo: hi/);
      const auditFile = join(ws.dir, 'audit.jsonl');
      assert.ok(existsSync(auditFile), 'the audit is beside the team configuration');
      const [record] = readFileSync(auditFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { principal: string; tool: string });
      assert.equal(record!.principal, `person:${provider.issuer}#erin`);
      assert.equal(record!.tool, 'echo');
    });
  });
});
