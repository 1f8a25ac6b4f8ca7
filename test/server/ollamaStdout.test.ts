// The ollama client console.logs on non-JSON error bodies; in a stdio MCP/LSP process that
// corrupts the channel. Real child processes show the hazard, the guard, and that the
// embedder avoids it even without the guard.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';

let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama();
});
after(async () => fake.close());

const root = resolve(__dirname, '../..');
const mod = (p: string) => JSON.stringify(resolve(root, p));

function runChild(code: string): Promise<{ stdout: string; stderr: string; status: number | null }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', `(async () => {${code}\n})()`], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (status) => done({ stdout, stderr, status }));
  });
}

const rawCall = (url: string) => `
  const { Ollama } = require('ollama');
  try { await new Ollama({ host: ${JSON.stringify(url)} }).embed({ model: 'nomic-embed-text', input: 'x' }); } catch (e) { process.stderr.write('failed: ' + e.message + '\\n'); }`;

test('without the guard, the raw ollama client writes to stdout on a text error body', async () => {
  fake.failEmbeds(1, 500, { text: 'upstream exploded' });
  const r = await runChild(rawCall(fake.url));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Getting text from response/);
});

test('with the stdout guard installed, that line goes to the logger (stderr) and stdout stays empty', async () => {
  fake.failEmbeds(1, 500, { text: 'upstream exploded' });
  const code = `
    const { installStdoutGuard } = require(${mod('server/src/adapters/stdoutGuard.ts')});
    const { lineLogger } = require(${mod('server/src/core/logger.ts')});
    installStdoutGuard(lineLogger((level, line) => process.stderr.write('[' + level + '] ' + line + '\\n'), 'debug'));
    ${rawCall(fake.url)}`;
  const r = await runChild(code);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /\[debug\] \[console\.log\] Getting text from response/);
  assert.match(r.stderr, /failed: upstream exploded/);
});

test('the embedder never reaches stdout, even without the guard', async () => {
  fake.failEmbeds(3, 500, { text: 'upstream exploded' });
  const code = `
    const { OllamaEmbedder } = require(${mod('server/src/adapters/embed/ollamaEmbedder.ts')});
    const e = new OllamaEmbedder({ host: ${JSON.stringify(fake.url)}, model: 'nomic-embed-text', retry: { attempts: 3, initialDelayMs: 1, maxDelayMs: 2 } });
    try { await e.embedDocuments(['x']); } catch (err) { process.stderr.write('failed: ' + err.kind + ' ' + err.message + '\\n'); }`;
  const r = await runChild(code);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /failed: server .*HTTP 500: upstream exploded/);
});
