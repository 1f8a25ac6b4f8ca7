/**
 * `mcp-lens` as installed (dist/cli.js) when something is wrong: every error exits non-zero with
 * the code exitCodes.ts documents, says what is wrong on one line of stderr naming the file and
 * line, the known alternatives or where it looked, and help is what the parser takes. Each test
 * has its own workspace and its own state, cache and config folders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import { workspaceStateDir } from '../../server/src/adapters/workspaceState';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const NM = join(ROOT, 'node_modules/@modelcontextprotocol');
const MEMORY = { command: process.execPath, args: [join(NM, 'server-memory/dist/index.js')] };
const FILESYSTEM = (dir: string) => ({
  command: process.execPath,
  args: [join(NM, 'server-filesystem/dist/index.js'), dir],
});

interface World {
  dir: string;
  env: NodeJS.ProcessEnv;
  run(...args: string[]): SpawnSyncReturns<string>;
  close(): void;
}

function world(servers?: Record<string, unknown>, raw?: string): World {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-cli-errors-'));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'mcpLens.embedding.enabled': false }));
  if (raw !== undefined) writeFileSync(join(ws, '.vscode', 'mcp.json'), raw);
  else if (servers) writeFileSync(join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    MCP_LENS_APPROVALS_FILE: join(home, 'approvals.json'),
    MCP_LENS_LOG: 'warn',
  };
  return {
    dir: ws,
    env,
    run: (...args) =>
      spawnSync(process.execPath, [CLI, ...args], { cwd: ws, env, encoding: 'utf8', timeout: 120_000, input: '' }),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test('a --config file that does not exist: exit 3, the file named, and not listed as a server', () => {
  const w = world();
  try {
    const r = w.run('tools', '--config', join(w.dir, 'nonexistent.json'));
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /nonexistent\.json: config file not found/);
    assert.doesNotMatch(r.stdout, /nonexistent\.json/, 'the file is no server');
    assert.doesNotMatch(r.stdout, /1 server/);
  } finally {
    w.close();
  }
});

test('a .vscode/mcp.json that is not valid JSON: exit 3, file:line:column and the error in words', () => {
  const w = world(undefined, '{\n  "servers": {\n    "fs": { "command": "node" },\n    oops\n  }\n}\n');
  try {
    const r = w.run('tools');
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /\.vscode\/mcp\.json:4:5: not valid JSON: a character that JSON does not allow here\n/);
    assert.doesNotMatch(r.stderr, /InvalidSymbol|PropertyNameExpected|JSONC/, 'no parser codes');
    const json = w.run('tools', '--json');
    assert.equal(json.status, 3);
    const doc = JSON.parse(json.stdout) as {
      servers: unknown[];
      problems: { file: string; line: number; column: number }[];
    };
    assert.deepEqual(doc.servers, []);
    assert.deepEqual(
      doc.problems.map((p) => [p.file, p.line, p.column]),
      [[join(w.dir, '.vscode', 'mcp.json'), 4, 5]],
    );
  } finally {
    w.close();
  }
});

test('an empty workspace: exit 3, saying where it looked; stats shows no meaningless percentage', () => {
  const w = world();
  try {
    const where = new RegExp(
      `no MCP server configured in ${w.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: looked in \\.vscode/mcp\\.json, \\.mcp\\.json and mcpLens\\.servers in \\.vscode/settings\\.json`,
    );
    const tools = w.run('tools');
    assert.equal(tools.status, 3, tools.stderr);
    assert.match(tools.stderr, where);
    const stats = w.run('stats');
    assert.equal(stats.status, 3, stats.stderr);
    assert.match(stats.stderr, where);
    assert.doesNotMatch(stats.stdout, /0\.0%|a cost/);
  } finally {
    w.close();
  }
});

test('an unknown server: exit 2, with the servers there are (search --server, login)', () => {
  const w = world({ memory: MEMORY });
  try {
    const config = join(w.dir, '.vscode', 'mcp.json');
    const search = w.run('search', 'read', '--server', 'memry', '--config', config);
    assert.equal(search.status, 2, search.stderr);
    assert.match(search.stderr, /unknown server "memry" \(did you mean memory\?\); the workspace's servers: memory/);
    const login = w.run('login', 'nosuch', '--config', config, '--no-browser');
    assert.equal(login.status, 2, login.stderr);
    assert.match(login.stderr, /unknown server "nosuch"; the workspace's servers: memory/);
    assert.doesNotMatch(login.stderr, /not running under MCP Lens/);
  } finally {
    w.close();
  }
});

test('every server failing: exit 1', () => {
  const w = world({ missing: { command: 'definitely-not-a-command-mcp-lens' } });
  try {
    const r = w.run('tools', '--config', join(w.dir, '.vscode', 'mcp.json'));
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /command not found: definitely-not-a-command-mcp-lens/);
    assert.match(r.stderr, /mcp-lens tools: no server started: every one failed/);
  } finally {
    w.close();
  }
});

test('help is what the parser takes: every option listed is accepted, defaults as the code has them', () => {
  const w = world();
  try {
    const main = w.run('--help');
    assert.equal(main.status, 0);
    assert.match(main.stdout, /--version, -v/);
    assert.match(main.stdout, /Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 .*\n {2}4 /);
    for (const command of ['tools', 'search', 'stats', 'login', 'logout', 'forget', 'pull-model', 'serve']) {
      const help = w.run(command, '--help');
      assert.equal(help.status, 0, `${command}: ${help.stderr}`);
      const text = help.stdout + help.stderr;
      const options = [...text.matchAll(/^ {2}--([a-z-]+)(?:, -[a-z])?( \[?[A-Z]+\]?)?/gm)];
      assert.ok(options.length > 1, `${command} lists its options`);
      for (const [, name, value] of options) {
        if (name === 'help') continue;
        // An option the parser does not know fails as "Unknown option" before anything runs.
        // A value that may be left out ([PORT]) is.
        const args = [
          command,
          ...(command === 'search' ? ['x'] : []),
          `--${name}`,
          ...(value && !value.includes('[') ? ['zz'] : []),
        ];
        const r = w.run(...args, '--bogus-to-stop-early');
        assert.match(r.stderr, /Unknown option '--bogus-to-stop-early'|wants a whole number/, `${command} --${name}`);
        assert.doesNotMatch(r.stderr, new RegExp(`Unknown option '--${name}'`), `${command} --${name}`);
      }
    }
    const search = w.run('search', '--help').stdout.replace(/\s+/g, ' ');
    assert.match(search, new RegExp(`${DEFAULT_SETTINGS.search.defaultLimit} unless the workspace sets it`));
    assert.doesNotMatch(search, /default 8/);
  } finally {
    w.close();
  }
});

test('a usage error is one line and a hint, not the whole help', () => {
  const w = world();
  try {
    for (const args of [['bench', '--bogus'], ['search', 'x', '--limit', '99'], ['tools', '--bogus'], ['toolz']]) {
      const r = w.run(...args);
      assert.equal(r.status, 2, args.join(' '));
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 2, r.stderr);
      assert.match(lines[1]!, /Run `mcp-lens (\w+ )?--help`/);
    }
  } finally {
    w.close();
  }
});

test('descriptions cut for the terminal end with an ellipsis, at a word', () => {
  const w = world({ memory: MEMORY });
  try {
    const config = join(w.dir, '.vscode', 'mcp.json');
    const doc = JSON.parse(w.run('tools', '--json', '--config', config).stdout) as {
      servers: { tools: { name: string; description: string }[] }[];
    };
    const full = new Map(doc.servers.flatMap((s) => s.tools.map((t) => [t.name, t.description.replace(/\s+/g, ' ')])));
    const text = w.run('tools', '--config', config).stdout;
    let cut = 0;
    for (const [name, description] of full) {
      const line = text.split('\n').find((l) => l.trimStart().startsWith(`${name} `))!;
      const shown = line.trim().slice(name.length).trim();
      if (shown === description.trim()) continue;
      cut++;
      assert.ok(shown.endsWith('…'), `cut without an ellipsis: ${shown}`);
      const kept = shown.slice(0, -1);
      assert.ok(description.startsWith(kept), shown);
      assert.match(description.slice(kept.length), /^[\s.,;:!?-]/, `cut mid-word: ${shown}`);
    }
    assert.ok(cut > 0, 'some description is long enough to be cut');
  } finally {
    w.close();
  }
});

test('search after tools listed the servers again tells the time of that listing', () => {
  const w = world({ fs: FILESYSTEM(join(tmpdir())) });
  try {
    const config = join(w.dir, '.vscode', 'mcp.json');
    assert.equal(w.run('tools', '--config', config).status, 0);
    // The cache says the tools were listed long ago; `tools` lists them again, the same.
    const file = join(workspaceStateDir(w.dir, w.env), 'catalog.json');
    const cache = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { listedAt: number }> };
    for (const s of Object.values(cache.servers)) s.listedAt = Date.UTC(2020, 0, 1);
    writeFileSync(file, JSON.stringify(cache));
    const before = Math.floor(Date.now() / 1000) * 1000;
    assert.equal(w.run('tools', '--config', config).status, 0);
    const r = w.run('search', 'read a file', '--config', config);
    assert.equal(r.status, 0, r.stderr);
    const shown = /as listed at ([^;]+);/.exec(r.stderr)?.[1];
    assert.ok(shown, r.stderr);
    assert.ok(
      new Date(shown).getTime() >= before,
      `listed at ${shown}, tools ran after ${new Date(before).toString()}`,
    );
  } finally {
    w.close();
  }
});

test('search "read a file" on the filesystem server ranks its reading tool first, not get_file_info or the deprecated read_file', () => {
  const w = world({ filesystem: FILESYSTEM(tmpdir()) });
  try {
    const r = w.run('search', 'read a file', '--json', '--config', join(w.dir, '.vscode', 'mcp.json'));
    assert.equal(r.status, 0, r.stderr);
    const names = (JSON.parse(r.stdout) as { hits: { name: string }[] }).hits.map((h) => h.name);
    assert.equal(names[0], 'filesystem_read_text_file', names.join(', '));
    assert.ok(names.indexOf('filesystem_read_file') > names.indexOf('filesystem_read_text_file'), names.join(', '));
  } finally {
    w.close();
  }
});

test('on a terminal, tools asks about each server once, with no warning to go and run it in a terminal', async (t) => {
  if (spawnSync('script', ['--version']).status !== 0) return t.skip('no `script` (util-linux) for a pseudo-terminal');
  const w = world({ memory: MEMORY, second: MEMORY });
  try {
    // `script` gives the CLI a pseudo-terminal on stdin and stderr; it answers as a person would, prompt by prompt.
    const child = spawn('script', ['-qec', `'${process.execPath}' '${CLI}' tools`, '/dev/null'], {
      cwd: w.dir,
      env: w.env,
    });
    let out = '';
    let answered = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const asked = out.split('Allow? [y/N]').length - 1;
      for (; answered < asked; answered++) child.stdin.write(answered === 0 ? 'y\r' : 'n\r');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(answered, 2, out);
    assert.doesNotMatch(out, /in a terminal to approve it/, 'no advice to do what is being done');
    assert.match(out, /memory {2}ready/);
    assert.match(out, /second {2}awaiting-approval/);
    assert.equal(code, 0, out);
  } finally {
    w.close();
  }
});
