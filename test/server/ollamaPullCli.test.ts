// `mcp-lens pull-model` in a real child process against the fake Ollama.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startFakeOllama } from '../fixtures/fakeOllama';

const root = resolve(__dirname, '../..');

function runPull(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const code = `(async () => {
    const { pullModel } = require(${JSON.stringify(resolve(root, 'server/src/cli/pull.ts'))});
    process.exitCode = await pullModel.run(${JSON.stringify(args)});
  })()`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (c) => done({ stdout, stderr, code: c }));
  });
}

test('pull-model streams progress to stderr and makes the model available', async (t) => {
  const fake = await startFakeOllama({ models: {}, pullable: { 'nomic-embed-text': 16 } });
  t.after(() => fake.close());
  const r = await runPull([], { OLLAMA_HOST: fake.url });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /pulling manifest/);
  assert.match(r.stderr, /100%/);
  assert.equal(r.stdout, `nomic-embed-text is ready in Ollama at ${fake.url}\n`);
  const tags = (await (await fetch(`${fake.url}/api/tags`)).json()) as { models: { name: string }[] };
  assert.deepEqual(
    tags.models.map((m) => m.name),
    ['nomic-embed-text:latest'],
  );
});

test('pull-model says what is wrong when Ollama is down or the model does not exist', async (t) => {
  const fake = await startFakeOllama({ models: {} });
  t.after(() => fake.close());
  const unknown = await runPull(['--host', fake.url, '--model', 'no-such-model']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /pull model manifest: file does not exist/);
  await fake.down();
  const down = await runPull(['--host', fake.url]);
  assert.equal(down.code, 1);
  assert.match(down.stderr, /unreachable/);
  assert.equal(down.stdout, '');
});
