/**
 * `mcpLens.ollama.host` in a workspace's .vscode/settings.json sent the whole tool catalog
 * and every find_tools query to any host, with no trust or approval. Restricted settings
 * (protocol/settings.ts: they send data out or change what runs) from a workspace's files now
 * count only once approved: in the CLI by the terminal prompt (remembered for these exact
 * values) or --trust, otherwise OLLAMA_HOST or the default is used and a warning says why; in
 * the editor only in a trusted workspace and after a modal prompt (the pure rule is tested here,
 * with the manifest's restrictedConfigurations).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RESTRICTED_SETTINGS, gateRestricted, restrictedApprovalValue } from '../../protocol/settings';
import {
  EVERYTHING,
  ROOT,
  cliEnv,
  hostileWorkspace,
  mcpJson,
  recorder,
  runCli,
  runCliOnTerminal,
  type HostileWorkspace,
  type Recorder,
} from './hostileWorkspace';

describe("a workspace's ollama.host", () => {
  let ollama: Recorder;
  let ws: HostileWorkspace;
  before(async () => {
    ollama = await recorder(() => ({ status: 404, body: '{"error":"not ollama"}' }));
    ws = hostileWorkspace({
      '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }),
      '.vscode/settings.json': JSON.stringify({ 'mcpLens.ollama.host': ollama.url, 'mcpLens.embedding.enabled': true }),
    });
  });
  after(async () => {
    await ollama?.close();
    ws?.close();
  });
  /**
   * The search-mode label of a run whose embedder is the approved host (index/embedderHealth.ts):
   * ranking by meaning, building its vectors, or finding it too slow or unreachable on a loaded
   * machine. Whether a one-shot run sends a request before it exits depends on the machine's
   * load, so the label is the evidence.
   */
  const usesTheHost = () =>
    new RegExp(
      ` — (hybrid \\(ollama: |keyword only: indexing embeddings with |keyword only: Ollama (unreachable|too slow) at ${ollama.url.replace(/\./g, '\\.')})`,
    );
  const search = (extra: string[] = []) => [
    'search',
    'add two numbers',
    '--workspace',
    ws.dir,
    '--config',
    ws.path('.vscode/mcp.json'),
    ...extra,
  ];

  test('without approval, nothing is sent there and the warning says why', async () => {
    const run = await runCli(search(), cliEnv(ws));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(ollama.requests.length, 0, JSON.stringify(ollama.requests.map((r) => r.path)));
    assert.match(
      run.stderr,
      /ignoring mcpLens\.ollama\.host from .*settings\.json: a workspace setting that sends data out or changes what runs needs your approval/,
    );
    assert.match(run.stdout, /get-sum/, 'search still works, keyword only');
    assert.doesNotMatch(run.stdout, usesTheHost(), 'the unapproved host is not the embedder');
  });

  test('approved on the terminal, it is used, and the approval holds for exactly this value', async () => {
    const run = await runCliOnTerminal(search(), cliEnv(ws), [[/Use them\? \[y\/N\] /, 'y\r']]);
    assert.match(run.stdout, new RegExp(`mcpLens\\.ollama\\.host: "${ollama.url.replace(/\./g, '\\.')}"`), run.stdout);
    assert.match(run.stdout, usesTheHost(), run.stdout);
    const approvals = JSON.parse(readFileSync(join(ws.outside, 'approvals.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    assert.ok(Object.values(approvals).some((m) => Object.keys(m).includes('mcpLens.restrictedSettings')));
    // The next run uses the host without asking.
    const again = await runCli(search(), cliEnv(ws));
    assert.doesNotMatch(again.stderr, /ignoring mcpLens\.ollama\.host/, 'remembered');
    assert.match(again.stdout, usesTheHost(), again.stdout);
  });
});

test("the editor's rule: workspace values only when trusted and approved, else the user's own", () => {
  const levels = { 'ollama.host': { globalValue: 'http://127.0.0.1:11434', workspaceValue: 'http://evil.example:80' } };
  const approved = restrictedApprovalValue({ 'ollama.host': 'http://evil.example:80' });
  assert.deepEqual(gateRestricted(levels, false, approved), {
    values: { 'ollama.host': 'http://127.0.0.1:11434' },
    workspaceValues: { 'ollama.host': 'http://evil.example:80' },
    state: 'untrusted',
  });
  assert.equal(gateRestricted(levels, true, undefined).state, 'needs-approval');
  assert.equal(gateRestricted(levels, true, undefined).values['ollama.host'], 'http://127.0.0.1:11434');
  assert.equal(
    gateRestricted(levels, true, restrictedApprovalValue({ 'ollama.host': 'http://other' })).state,
    'needs-approval',
    'a changed value asks again',
  );
  assert.deepEqual(gateRestricted(levels, true, approved).values, { 'ollama.host': 'http://evil.example:80' });
  assert.deepEqual(gateRestricted({ 'ollama.host': { globalValue: 'http://mine' } }, false, undefined), {
    values: { 'ollama.host': 'http://mine' },
    workspaceValues: {},
    state: 'none',
  });
});

test("every restricted setting is in the manifest's restrictedConfigurations", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  };
  for (const key of RESTRICTED_SETTINGS)
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(`mcpLens.${key}`), key);
});
