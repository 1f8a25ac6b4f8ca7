/**
 * `mcp-lens tools` as a user runs it: a workspace whose .vscode/mcp.json holds real servers,
 * a broken entry and a command that does not exist. Every server gets a line; the broken
 * ones say why; the others work; the exit code is 0 (4 when nothing may start).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const NM = join(ROOT, 'node_modules/@modelcontextprotocol');

function workspace(): { dir: string; approvals: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-cli-'));
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(
    join(dir, '.vscode', 'mcp.json'),
    `// a comment, as JSONC allows
{
  "servers": {
    "everything": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(join(NM, 'server-everything/dist/index.js'))}, "stdio"] },
    "memory": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(join(NM, 'server-memory/dist/index.js'))}], "env": { "MEMORY_FILE_PATH": "\${workspaceFolder}/memory.jsonl" } },
    "broken": { "type": "stdio", "args": ["x"] },
    "missing": { "command": "definitely-not-a-command-mcp-lens" },
  },
}
`,
  );
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'mcpLens.embedding.enabled': false }));
  return { dir, approvals: join(dir, 'approvals.json') };
}

function runTools(dir: string, approvals: string, ...extra: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'server/src/cli/main.ts'), 'tools', '--workspace', dir, ...extra],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, MCP_LENS_APPROVALS_FILE: approvals, MCP_LENS_LOG: 'warn' },
      timeout: 60_000,
    },
  );
}

interface ToolsDoc {
  servers: {
    name: string;
    state: string;
    error?: string;
    tools: { name: string; server: string; originalName: string; description: string; inputSchema: unknown }[];
  }[];
}

test('tools --trust --json lists every server with its state; bad entries are one clear line each', () => {
  const ws = workspace();
  try {
    const r = runTools(ws.dir, ws.approvals, '--trust', '--json');
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as ToolsDoc;
    const by = new Map(doc.servers.map((s) => [s.name, s]));
    assert.deepEqual([...by.keys()].sort(), ['broken', 'everything', 'memory', 'missing']);
    assert.equal(by.get('everything')!.state, 'ready');
    assert.equal(by.get('memory')!.state, 'ready');
    const sum = by.get('everything')!.tools.find((t) => t.originalName === 'get-sum');
    assert.ok(sum, 'get-sum listed');
    assert.equal(sum.server, 'everything');
    assert.match(sum.name, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.equal(typeof sum.inputSchema, 'object');
    assert.equal(by.get('broken')!.state, 'disabled');
    assert.match(by.get('broken')!.error ?? '', /missing "command"/);
    assert.equal(by.get('missing')!.state, 'error');
    assert.match(by.get('missing')!.error ?? '', /command not found: definitely-not-a-command-mcp-lens/);
    // The config problem is reported on stderr with the file and JSON path.
    assert.match(r.stderr, /mcp\.json: servers\.broken/);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
});

test('without --trust and without a terminal, workspace servers wait for approval and nothing starts', () => {
  const ws = workspace();
  try {
    const r = runTools(ws.dir, ws.approvals, '--json');
    // Nothing started: exit code 4 (exitCodes.ts), and the list is still printed.
    assert.equal(r.status, 4, r.stderr);
    const doc = JSON.parse(r.stdout) as ToolsDoc;
    const states = Object.fromEntries(doc.servers.map((s) => [s.name, s.state]));
    assert.equal(states.everything, 'awaiting-approval');
    assert.equal(states.memory, 'awaiting-approval');
    assert.equal(doc.servers.flatMap((s) => s.tools).length, 0);
    assert.match(r.stderr, /\[everything\] not started: .* needs your approval \(run `mcp-lens tools` in a terminal/);
    assert.match(r.stderr, /^mcp-lens tools: no server started: .*everything.* wait for approval/m);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
});

test('a config file named with --config counts as approved', () => {
  const ws = workspace();
  try {
    const r = runTools(ws.dir, ws.approvals, '--config', join(ws.dir, '.vscode', 'mcp.json'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^everything {2}ready {2}\d+ tools? /m);
    assert.match(r.stdout, /everything_get-sum/);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
});

test('search answers from the catalog the last run cached, and only while the config still matches it', () => {
  const ws = workspace();
  const search = (...extra: string[]) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'server/src/cli/main.ts'),
        'search',
        'add two numbers',
        '--workspace',
        ws.dir,
        '--trust',
        '--json',
        ...extra,
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, MCP_LENS_APPROVALS_FILE: ws.approvals, MCP_LENS_LOG: 'warn' },
        timeout: 60_000,
      },
    );
  const names = (r: ReturnType<typeof search>) =>
    (JSON.parse(r.stdout) as { hits: { name: string }[] }).hits.map((h) => h.name);
  try {
    const first = search();
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /servers not started/);
    assert.ok(names(first).includes('everything_get-sum'), names(first).join(', '));

    const cached = search();
    assert.equal(cached.status, 0, cached.stderr);
    assert.match(cached.stderr, /servers not started/);
    assert.deepEqual(names(cached), names(first), 'the cached catalog ranks exactly like the live one');

    assert.doesNotMatch(search('--fresh').stderr, /servers not started/);

    // A changed definition (new env value) no longer matches its cached catalog: that server
    // starts again, the others still answer from the cache.
    const file = join(ws.dir, '.vscode', 'mcp.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('memory.jsonl', 'memory2.jsonl'));
    const changed = search();
    assert.equal(changed.status, 0, changed.stderr);
    const notStarted = /tools of (.*) as listed at .*servers not started/.exec(changed.stderr)?.[1]?.split(', ');
    assert.ok(notStarted?.includes('everything'), changed.stderr);
    assert.ok(!notStarted?.includes('memory'), changed.stderr);
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
});
