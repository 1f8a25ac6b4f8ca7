/**
 * The CLI's sign-in, as a user runs it (the built dist/cli.js): `mcp-lens login <server>
 * --no-browser` prints the authorization page's address, which this test answers headlessly
 * against a real OpenID provider (test/server/oidcWorld.ts); the tokens land in the user's
 * config folder (0600 in a 0700 folder, never the workspace), `mcp-lens tools` then reaches the
 * server with them, and `mcp-lens logout` forgets them. Also: the token file refuses a link.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FileOAuthStore } from '../../server/src/adapters/upstream/auth/fileOAuthStore';
import { lineLogger } from '../../server/src/core/logger';
import { headlessDoor, submitFirstForm } from '../conformance/headlessDoor';
import { startOidcWorld, type OidcWorld } from './oidcWorld';

const CLI = resolve(__dirname, '../../dist/cli.js');

function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
  onStderr?: (text: string) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr);
    });
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe('mcp-lens login / logout', () => {
  let world: OidcWorld;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let config: string;
  const tokenFile = () => join(dir, 'config', 'mcp-lens', 'oauth.json');

  before(async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built (npm test builds it)');
    world = await startOidcWorld();
    dir = mkdtempSync(join(tmpdir(), 'lens-oauth-cli-'));
    mkdirSync(join(dir, 'ws'));
    config = join(dir, 'ws', 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers: { protected: { type: 'http', url: world.mcpUrl } } }));
    env = {
      ...process.env,
      XDG_CONFIG_HOME: join(dir, 'config'),
      MCP_LENS_APPROVALS_FILE: join(dir, 'approvals.json'),
      HOME: dir,
    };
    delete env.MCP_LENS_OAUTH_FILE;
  });

  after(async () => {
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('login prints the address, completes when the browser comes back, keeps the tokens in a 0600 file outside the workspace', async () => {
    let followed = false;
    const door = headlessDoor({ answer: submitFirstForm });
    const r = await cli(
      ['login', 'protected', '--no-browser', '--workspace', join(dir, 'ws'), '--config', config],
      env,
      (text) => {
        const url = /open this address in a browser:\s+(\S+)/.exec(text)?.[1];
        if (url && !followed) {
          followed = true;
          void door.openAuthorization('protected', new URL(url));
        }
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Signed in to protected: 2 tools\./);
    assert.ok(followed, 'the address was printed');
    assert.equal(statSync(tokenFile()).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'config', 'mcp-lens')).mode & 0o777, 0o700);
    const saved = readFileSync(tokenFile(), 'utf8');
    assert.match(saved, /"access_token"/);
    assert.ok(!existsSync(join(dir, 'ws', '.mcp-lens', 'oauth.json')), 'nothing in the workspace');
    for (const [, token] of saved.matchAll(/"(?:access|refresh)_token": "([^"]+)"/g))
      assert.ok(!r.stderr.includes(token!) && !r.stdout.includes(token!), 'no token printed');
  });

  test('other commands use the stored tokens: tools lists the server ready, without signing in', async () => {
    const authorizations = world.events.filter((e) => e.kind === 'authorization').length;
    const r = await cli(['tools', '--json', '--workspace', join(dir, 'ws'), '--config', config], env);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { servers: { name: string; state: string; tools: unknown[] }[] };
    assert.deepEqual(
      doc.servers.map((s) => [s.name, s.state, s.tools.length]),
      [['protected', 'ready', 2]],
    );
    assert.equal(world.events.filter((e) => e.kind === 'authorization').length, authorizations);
  });

  test('logout forgets the tokens: the server needs sign-in again, and says how', async () => {
    const out = await cli(['logout', 'protected', '--workspace', join(dir, 'ws'), '--config', config], env);
    assert.equal(out.code, 0, out.stderr);
    assert.doesNotMatch(readFileSync(tokenFile(), 'utf8'), /access_token/);
    const r = await cli(['tools', '--json', '--workspace', join(dir, 'ws'), '--config', config], env);
    const doc = JSON.parse(r.stdout) as { servers: { name: string; state: string; error?: string }[] };
    assert.equal(doc.servers[0]?.state, 'needs-sign-in');
    assert.match(doc.servers[0]?.error ?? '', /mcp-lens login protected/);
  });

  test('the token file is never read or written through a link, nor trusted when others can read it', async () => {
    const warnings: string[] = [];
    const log = lineLogger((_, l) => warnings.push(l), 'warn');
    const linked = join(dir, 'linked');
    mkdirSync(linked, { mode: 0o700 });
    writeFileSync(
      join(dir, 'elsewhere.json'),
      JSON.stringify({
        version: 1,
        records: { 'oauth.x': { tokens: { access_token: 'planted', token_type: 'Bearer' } } },
      }),
      { mode: 0o600 },
    );
    symlinkSync(join(dir, 'elsewhere.json'), join(linked, 'oauth.json'));
    const store = new FileOAuthStore(join(linked, 'oauth.json'), log);
    assert.equal(await store.read('oauth.x'), undefined);
    assert.match(warnings.join('\n'), /symbolic link/);
    await assert.rejects(store.write('oauth.y', {}), /symbolic link/);
    const loose = join(dir, 'loose');
    mkdirSync(loose, { mode: 0o700 });
    writeFileSync(
      join(loose, 'oauth.json'),
      JSON.stringify({
        version: 1,
        records: { 'oauth.x': { tokens: { access_token: 'planted', token_type: 'Bearer' } } },
      }),
      { mode: 0o644 },
    );
    assert.equal(await new FileOAuthStore(join(loose, 'oauth.json'), log).read('oauth.x'), undefined);
  });
});
