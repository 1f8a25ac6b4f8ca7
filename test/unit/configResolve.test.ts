// Config resolution (pure): every source format, variable and bad input, with exact problem texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  resolveConfig,
  formatProblem,
  type ConfigFileText,
  type ResolveContext,
} from '../../server/src/core/config/resolve';
import { DEFAULT_SETTINGS, type McpLensSettings } from '../../protocol/settings';
import { claudeDesktopConfigPath, configCandidates } from '../../server/src/core/config/sources';
import type { LoadedConfig, ServerConfig } from '../../server/src/core/config/types';

const WS = '/work/ws';
const HOME = '/home/u';
const VSC = `${WS}/.vscode/mcp.json`;
const MCPJ = `${WS}/.mcp.json`;
const CUR = `${WS}/.cursor/mcp.json`;
const CLAUDE = `${HOME}/.config/Claude/claude_desktop_config.json`;
const SETTINGS_FILE = `${WS}/.vscode/settings.json`;
const ALL_SOURCES: McpLensSettings['importFrom'] = ['vscode', 'mcp-json', 'claude-desktop', 'cursor', 'settings'];

const vsc = (text: string): ConfigFileText => ({ path: VSC, kind: 'vscode-mcp-json', text });
const mcpj = (text: string): ConfigFileText => ({ path: MCPJ, kind: 'mcp-json', text });
const cur = (text: string): ConfigFileText => ({ path: CUR, kind: 'cursor', text });
const claude = (text: string): ConfigFileText => ({ path: CLAUDE, kind: 'claude-desktop', text });
const cli = (text: string, p = '/etc/lens.json'): ConfigFileText => ({ path: p, kind: 'cli-config', text });

interface Over {
  env?: Record<string, string | undefined>;
  inputs?: Record<string, string>;
  settings?: Partial<McpLensSettings>;
  envFiles?: Record<string, string>;
}

function run(files: ConfigFileText[], over: Over = {}): LoadedConfig {
  const ctx: ResolveContext = {
    workspaceFolder: WS,
    userHome: HOME,
    env: over.env ?? {},
    inputs: over.inputs ?? {},
    settings: { ...DEFAULT_SETTINGS, importFrom: ALL_SOURCES, ...over.settings },
    settingsFile: SETTINGS_FILE,
    readEnvFile: (p) => over.envFiles?.[p],
  };
  return resolveConfig(files, ctx);
}
const problems = (r: LoadedConfig) => r.problems.map((p) => `${p.severity} ${formatProblem(p, WS)}`);
/** A server without its fingerprint (tested on its own below) and shown form (test/security), for deepEqual. */
const bare = (s: ServerConfig | undefined) => {
  assert.ok(s, 'server expected');
  const { fingerprint, shown, ...rest } = s;
  assert.ok(shown, 'config loading sets the shown form');
  assert.match(fingerprint, /^[0-9a-f]{16}$/);
  return rest;
};
const server = (r: LoadedConfig, name: string) => bare(r.servers.find((s) => s.name === name));

test('every source format resolves to the same kind of server', async (t) => {
  const cases: { name: string; files: ConfigFileText[]; expect: Record<string, unknown> }[] = [
    {
      name: '.vscode/mcp.json stdio (JSONC: comments, trailing commas)',
      files: [
        vsc(
          '{ // mine\n "servers": { "gh": { "type": "stdio", "command": "npx", "args": ["-y", "gh-mcp",], "env": { "A": "1" }, }, }, }',
        ),
      ],
      expect: {
        type: 'stdio',
        name: 'gh',
        source: { kind: 'vscode-mcp-json', file: VSC, path: 'servers.gh' },
        command: 'npx',
        args: ['-y', 'gh-mcp'],
        env: { A: '1' },
      },
    },
    {
      name: '.vscode/mcp.json http with headers',
      files: [
        vsc(
          '{"servers": {"gh": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer x"}}}}',
        ),
      ],
      expect: {
        type: 'http',
        name: 'gh',
        source: { kind: 'vscode-mcp-json', file: VSC, path: 'servers.gh' },
        url: 'https://api.example.com/mcp',
        headers: { Authorization: 'Bearer x' },
      },
    },
    {
      name: '.vscode/mcp.json sse',
      files: [vsc('{"servers": {"gh": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}}')],
      expect: {
        type: 'sse',
        name: 'gh',
        source: { kind: 'vscode-mcp-json', file: VSC, path: 'servers.gh' },
        url: 'http://127.0.0.1:9/sse',
        headers: {},
      },
    },
    {
      name: 'type omitted with command → stdio (.mcp.json)',
      files: [mcpj('{"mcpServers": {"gh": {"command": "uvx", "args": ["gh"]}}}')],
      expect: {
        type: 'stdio',
        name: 'gh',
        source: { kind: 'mcp-json', file: MCPJ, path: 'mcpServers.gh' },
        command: 'uvx',
        args: ['gh'],
        env: {},
      },
    },
    {
      name: 'type omitted with url → http (.mcp.json)',
      files: [mcpj('{"mcpServers": {"gh": {"url": "https://x.example/mcp", "headers": {"X-Key": "k"}}}}')],
      expect: {
        type: 'http',
        name: 'gh',
        source: { kind: 'mcp-json', file: MCPJ, path: 'mcpServers.gh' },
        url: 'https://x.example/mcp',
        headers: { 'X-Key': 'k' },
      },
    },
    {
      name: 'Claude Desktop mcpServers',
      files: [
        claude(
          '{"mcpServers": {"gh": {"command": "node", "args": ["/opt/s.js"], "env": {"T": "v"}}}, "globalShortcut": ""}',
        ),
      ],
      expect: {
        type: 'stdio',
        name: 'gh',
        source: { kind: 'claude-desktop', file: CLAUDE, path: 'mcpServers.gh' },
        command: 'node',
        args: ['/opt/s.js'],
        env: { T: 'v' },
      },
    },
    {
      name: 'Cursor mcpServers with explicit type',
      files: [cur('{"mcpServers": {"gh": {"type": "sse", "url": "https://c.example/sse"}}}')],
      expect: {
        type: 'sse',
        name: 'gh',
        source: { kind: 'cursor', file: CUR, path: 'mcpServers.gh' },
        url: 'https://c.example/sse',
        headers: {},
      },
    },
    {
      name: '"streamable-http" is read as http',
      files: [mcpj('{"mcpServers": {"gh": {"type": "streamable-http", "url": "https://x.example/mcp"}}}')],
      expect: {
        type: 'http',
        name: 'gh',
        source: { kind: 'mcp-json', file: MCPJ, path: 'mcpServers.gh' },
        url: 'https://x.example/mcp',
        headers: {},
      },
    },
    {
      name: '--config file in servers format',
      files: [cli('{"servers": {"gh": {"command": "gh-mcp"}}}')],
      expect: {
        type: 'stdio',
        name: 'gh',
        source: { kind: 'cli-config', file: '/etc/lens.json', path: 'servers.gh' },
        command: 'gh-mcp',
        args: [],
        env: {},
      },
    },
    {
      name: '--config file in mcpServers format',
      files: [cli('{"mcpServers": {"gh": {"url": "https://x.example/mcp"}}}')],
      expect: {
        type: 'http',
        name: 'gh',
        source: { kind: 'cli-config', file: '/etc/lens.json', path: 'mcpServers.gh' },
        url: 'https://x.example/mcp',
        headers: {},
      },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const r = run(c.files);
      assert.deepEqual(problems(r), []);
      assert.deepEqual(r.servers.map(bare), [c.expect]);
    });
  }
});

test('mcpLens.servers from settings, reported against the settings file', () => {
  const r = run([], { settings: { servers: { s1: { command: 'a' }, s2: { type: 'http' } } } });
  assert.deepEqual(server(r, 's1'), {
    type: 'stdio',
    name: 's1',
    source: { kind: 'settings', file: SETTINGS_FILE, path: 'mcpLens.servers.s1' },
    command: 'a',
    args: [],
    env: {},
  });
  assert.deepEqual(problems(r), [
    'error .vscode/settings.json: mcpLens.servers.s2.url: missing "url" for an http server',
  ]);
  assert.deepEqual(r.disabled, [
    {
      name: 's2',
      source: { kind: 'settings', file: SETTINGS_FILE, path: 'mcpLens.servers.s2' },
      reason: 'mcpLens.servers.s2.url: missing "url" for an http server',
    },
  ]);
});

test('variables are substituted in command, args, env, envFile, cwd, url and header values', async (t) => {
  const env = { TOKEN: 'tok', HOST: 'h.example' };
  const inputs = { key: 'k3y' };
  const cases: {
    name: string;
    entry: string;
    field: 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers';
    want: unknown;
  }[] = [
    {
      name: '${workspaceFolder}',
      entry: '{"command": "${workspaceFolder}/bin/s"}',
      field: 'command',
      want: `${WS}/bin/s`,
    },
    {
      name: '${workspaceFolderBasename}',
      entry: '{"command": "s", "args": ["${workspaceFolderBasename}"]}',
      field: 'args',
      want: ['ws'],
    },
    { name: '${userHome}', entry: '{"command": "s", "args": ["${userHome}/.x"]}', field: 'args', want: [`${HOME}/.x`] },
    { name: '${env:NAME}', entry: '{"command": "s", "env": {"T": "${env:TOKEN}"}}', field: 'env', want: { T: 'tok' } },
    {
      name: '${pathSeparator} and ${/}',
      entry: '{"command": "s", "args": ["a${pathSeparator}b${/}c"]}',
      field: 'args',
      want: [`a${path.sep}b${path.sep}c`],
    },
    {
      name: '${input:id} supplied',
      entry: '{"command": "s", "args": ["--key", "${input:key}"]}',
      field: 'args',
      want: ['--key', 'k3y'],
    },
    {
      name: 'several in one value',
      entry: '{"command": "s", "args": ["${env:TOKEN}-${input:key}-${env:TOKEN}"]}',
      field: 'args',
      want: ['tok-k3y-tok'],
    },
    { name: 'cwd', entry: '{"command": "s", "cwd": "${userHome}/w"}', field: 'cwd', want: `${HOME}/w` },
    { name: 'url', entry: '{"url": "https://${env:HOST}/mcp"}', field: 'url', want: 'https://h.example/mcp' },
    {
      name: 'header value',
      entry: '{"url": "https://x.example", "headers": {"Authorization": "Bearer ${input:key}"}}',
      field: 'headers',
      want: { Authorization: 'Bearer k3y' },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const r = run([vsc(`{"servers": {"s": ${c.entry}}}`)], { env, inputs });
      assert.deepEqual(problems(r), []);
      assert.deepEqual((server(r, 's') as Record<string, unknown>)[c.field], c.want);
    });
  }
});

test('envFile: dotenv values under env, relative to the workspace', () => {
  const envFiles = { [`${WS}/.env`]: '# c\nexport A=from-file\nB="two words"\nC=keep\nbad line\n' };
  const r = run(
    [
      vsc(
        '{"servers": {"s": {"command": "s", "envFile": ".env", "env": {"B": "from-env", "C": null, "D": 4, "E": true}}}}',
      ),
    ],
    { envFiles },
  );
  assert.deepEqual(server(r, 's'), {
    type: 'stdio',
    name: 's',
    source: { kind: 'vscode-mcp-json', file: VSC, path: 'servers.s' },
    command: 's',
    args: [],
    env: { A: 'from-file', B: 'from-env', D: '4', E: 'true' },
    removeEnv: ['C'],
  });
  assert.deepEqual(problems(r), [
    `warning .vscode/mcp.json: servers.s.envFile: ${WS}/.env line 5: expected KEY=VALUE or KEY: VALUE; line ignored`,
  ]);
  assert.ok(r.files.includes(`${WS}/.env`), 'env file listed for watching');
});

test('paths: relative cwd and a command with a slash resolve against the workspace', async (t) => {
  const cases = [
    { entry: '{"command": "./bin/s", "cwd": "sub"}', command: `${WS}/bin/s`, cwd: `${WS}/sub` },
    { entry: '{"command": "tools/s"}', command: `${WS}/tools/s`, cwd: undefined },
    { entry: '{"command": "npx", "cwd": "/abs"}', command: 'npx', cwd: '/abs' },
    { entry: '{"command": "/usr/bin/s", "cwd": "${workspaceFolder}"}', command: '/usr/bin/s', cwd: WS },
  ];
  for (const c of cases) {
    await t.test(c.entry, () => {
      const s = server(run([vsc(`{"servers": {"s": ${c.entry}}}`)]), 's') as Record<string, unknown>;
      assert.equal(s.command, c.command);
      assert.equal(s.cwd, c.cwd);
    });
  }
});

test('bad entries disable that server only, with exact problem texts', async (t) => {
  const cases: { name: string; entry: string; problems: string[]; missingInputs?: string[] }[] = [
    {
      name: 'unknown type',
      entry: '{"type": "websocket", "url": "ws://x"}',
      problems: [
        'error .vscode/mcp.json: servers.bad.type: unknown type "websocket" (expected "stdio", "http" or "sse")',
      ],
    },
    {
      name: 'type not a string',
      entry: '{"type": 3, "command": "x"}',
      problems: ['error .vscode/mcp.json: servers.bad.type: unknown type 3 (expected "stdio", "http" or "sse")'],
    },
    {
      name: 'missing command',
      entry: '{"type": "stdio", "args": []}',
      problems: ['error .vscode/mcp.json: servers.bad.command: missing "command" for a stdio server'],
    },
    {
      name: 'empty command',
      entry: '{"command": " "}',
      problems: ['error .vscode/mcp.json: servers.bad.command: "command" must be a non-empty string'],
    },
    {
      name: 'missing url (http)',
      entry: '{"type": "http"}',
      problems: ['error .vscode/mcp.json: servers.bad.url: missing "url" for an http server'],
    },
    {
      name: 'missing url (sse)',
      entry: '{"type": "sse", "headers": {}}',
      problems: ['error .vscode/mcp.json: servers.bad.url: missing "url" for an sse server'],
    },
    {
      name: 'neither command nor url',
      entry: '{"args": ["x"]}',
      problems: [
        'error .vscode/mcp.json: servers.bad: missing "command" (for a stdio server) or "url" (for an http server)',
      ],
    },
    {
      name: 'both command and url, no type',
      entry: '{"command": "x", "url": "http://x"}',
      problems: ['error .vscode/mcp.json: servers.bad: has both "command" and "url"; set "type" to say which'],
    },
    {
      name: 'entry not an object',
      entry: '"npx server"',
      problems: ['error .vscode/mcp.json: servers.bad: expected an object with "command" or "url"'],
    },
    {
      name: 'args not an array',
      entry: '{"command": "x", "args": "--a --b"}',
      problems: ['error .vscode/mcp.json: servers.bad.args: "args" must be an array of strings, got string'],
    },
    {
      name: 'args item not a string',
      entry: '{"command": "x", "args": ["a", 2]}',
      problems: ['error .vscode/mcp.json: servers.bad.args[1]: expected a string, got number'],
    },
    {
      name: 'env not an object',
      entry: '{"command": "x", "env": ["A=1"]}',
      problems: ['error .vscode/mcp.json: servers.bad.env: "env" must be an object of strings, got array'],
    },
    {
      name: 'env value an object',
      entry: '{"command": "x", "env": {"A": {"v": 1}}}',
      problems: ['error .vscode/mcp.json: servers.bad.env.A: expected a string, number, boolean or null, got object'],
    },
    {
      name: 'cwd not a string',
      entry: '{"command": "x", "cwd": 5}',
      problems: ['error .vscode/mcp.json: servers.bad.cwd: "cwd" must be a string, got number'],
    },
    {
      name: 'headers not an object',
      entry: '{"url": "http://x", "headers": "a: b"}',
      problems: ['error .vscode/mcp.json: servers.bad.headers: "headers" must be an object of strings, got string'],
    },
    {
      name: 'invalid url (never echoed)',
      entry: '{"url": "not a url ${input:k}"}',
      problems: ['error .vscode/mcp.json: servers.bad.url: "url" is not a valid URL'],
    },
    {
      name: 'url with another scheme',
      entry: '{"type": "http", "url": "file:///etc/passwd"}',
      problems: ['error .vscode/mcp.json: servers.bad.url: "url" must use http: or https:, not file:'],
    },
    {
      name: 'envFile that does not exist',
      entry: '{"command": "x", "envFile": "${workspaceFolder}/.env.missing"}',
      problems: [`error .vscode/mcp.json: servers.bad.envFile: env file not found: ${WS}/.env.missing`],
    },
    {
      name: 'undefined ${input:x}',
      entry: '{"command": "x", "args": ["${input:tok}"], "env": {"T": "${input:tok}", "U": "${input:other}"}}',
      problems: [
        'error .vscode/mcp.json: servers.bad.args[0]: no value for ${input:tok}',
        'error .vscode/mcp.json: servers.bad.env.T: no value for ${input:tok}',
        'error .vscode/mcp.json: servers.bad.env.U: no value for ${input:other}',
      ],
      missingInputs: ['tok', 'other'],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const r = run([vsc(`{"servers": {"bad": ${c.entry}, "good": {"command": "ok"}}}`)], { inputs: { k: 'v' } });
      assert.deepEqual(problems(r), c.problems);
      assert.deepEqual(
        r.servers.map((s) => s.name),
        ['good'],
      );
      assert.deepEqual(
        r.disabled.map((d) => [d.name, d.reason]),
        [['bad', c.problems.map((p) => p.replace('error .vscode/mcp.json: ', '')).join('; ')]],
      );
      assert.deepEqual(r.missingInputs, c.missingInputs ?? []);
    });
  }
});

test('warnings that do not disable: unset ${env:}, unknown variables', () => {
  const r = run([vsc('{"servers": {"s": {"command": "x", "args": ["${env:NOPE}", "${config:editor.x}"]}}}')]);
  assert.deepEqual(problems(r), [
    'warning .vscode/mcp.json: servers.s.args[0]: ${env:NOPE} is not set; using ""',
    'warning .vscode/mcp.json: servers.s.args[1]: unsupported variable ${config:editor.x} left as written',
  ]);
  assert.deepEqual((server(r, 's') as { args: string[] }).args, ['', '${config:editor.x}']);
});

test('missingInputs lists each id once across servers, and inputs declarations are read', () => {
  const r = run([
    vsc(
      '{"inputs": [{"id": "tok", "type": "promptString", "description": "Token", "password": true}, {"type": "x"}], "servers": {"a": {"command": "x", "env": {"T": "${input:tok}"}}, "b": {"url": "https://x/${input:tok}"}}}',
    ),
  ]);
  assert.deepEqual(r.missingInputs, ['tok']);
  assert.deepEqual(
    r.disabled.map((d) => d.name),
    ['a', 'b'],
  );
  assert.deepEqual(r.inputs, [{ id: 'tok', type: 'promptString', description: 'Token', password: true, file: VSC }]);
  assert.ok(problems(r).includes('warning .vscode/mcp.json: inputs[1]: expected an object with a string "id"'));
});

test('file-level problems: one per file, other files still load', async (t) => {
  const cases: { name: string; file: ConfigFileText; problems: string[] }[] = [
    {
      name: 'invalid JSONC',
      file: vsc('{\n  "servers": {\n    "a": { "command": "x" \n  }\n'),
      problems: ['error .vscode/mcp.json:5:1: not valid JSON: expected a closing brace }'],
    },
    {
      name: 'missing comma',
      file: vsc('{"servers": {"a": {"command": "x"} "b": {}}}'),
      problems: ['error .vscode/mcp.json:1:36: not valid JSON: expected a comma between two entries'],
    },
    {
      name: 'top level array',
      file: vsc('[]'),
      problems: ['error .vscode/mcp.json: expected a JSON object at the top level'],
    },
    {
      name: 'servers not an object',
      file: vsc('{"servers": []}'),
      problems: ['error .vscode/mcp.json: servers: "servers" must be an object mapping server names to definitions'],
    },
    {
      name: 'mcpServers in .vscode/mcp.json',
      file: vsc('{"mcpServers": {"a": {"command": "x"}}}'),
      problems: [
        'warning .vscode/mcp.json: mcpServers: VS Code\'s mcp.json lists servers under "servers", not "mcpServers"; these entries are ignored',
      ],
    },
    { name: 'empty file is no config', file: vsc('  \n'), problems: [] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const r = run([c.file, mcpj('{"mcpServers": {"other": {"command": "y"}}}')]);
      assert.deepEqual(problems(r), c.problems);
      assert.deepEqual(
        r.servers.map((s) => s.name),
        ['other'],
      );
      assert.deepEqual(r.files, [VSC, MCPJ]);
    });
  }
  await t.test('--config file without servers', () => {
    assert.deepEqual(problems(run([cli('{"foo": 1}', `${WS}/lens.json`)])), [
      'error lens.json: no "servers" or "mcpServers" object found',
    ]);
  });
});

test('duplicate names: first source in importFrom order wins, the warning names both files', async (t) => {
  const files = [
    vsc('{"servers": {"gh": {"command": "from-vscode"}}}'),
    mcpj('{"mcpServers": {"gh": {"command": "from-mcp-json"}}}'),
    claude('{"mcpServers": {"gh": {"command": "from-claude"}}}'),
  ];
  const cases = [
    {
      importFrom: ['vscode', 'mcp-json', 'claude-desktop'] as McpLensSettings['importFrom'],
      command: 'from-vscode',
      problems: [
        'warning .mcp.json: mcpServers.gh: server "gh" is also defined in .vscode/mcp.json (servers.gh), which takes precedence; this definition is ignored',
        `warning ${CLAUDE}: mcpServers.gh: server "gh" is also defined in .vscode/mcp.json (servers.gh), which takes precedence; this definition is ignored`,
      ],
    },
    {
      importFrom: ['claude-desktop', 'mcp-json'] as McpLensSettings['importFrom'],
      command: 'from-claude',
      problems: [
        `warning .mcp.json: mcpServers.gh: server "gh" is also defined in ${CLAUDE} (mcpServers.gh), which takes precedence; this definition is ignored`,
      ],
    },
  ];
  for (const c of cases) {
    await t.test(c.importFrom.join(','), () => {
      const r = run(files, { settings: { importFrom: c.importFrom } });
      assert.deepEqual(
        r.servers.map((s) => [s.name, (s as { command: string }).command]),
        [['gh', c.command]],
      );
      assert.deepEqual(problems(r), c.problems);
    });
  }
  await t.test('settings vs file', () => {
    const r = run([vsc('{"servers": {"gh": {"command": "from-vscode"}}}')], {
      settings: { importFrom: ['settings', 'vscode'], servers: { gh: { command: 'from-settings' } } },
    });
    assert.deepEqual(
      r.servers.map((s) => (s as { command: string }).command),
      ['from-settings'],
    );
    assert.deepEqual(problems(r), [
      'warning .vscode/mcp.json: servers.gh: server "gh" is also defined in .vscode/settings.json (mcpLens.servers.gh), which takes precedence; this definition is ignored',
    ]);
  });
  await t.test('a disabled first definition still wins (no silent switch to another file)', () => {
    const r = run([vsc('{"servers": {"gh": {"type": "stdio"}}}'), mcpj('{"mcpServers": {"gh": {"command": "x"}}}')]);
    assert.deepEqual(r.servers, []);
    assert.deepEqual(
      r.disabled.map((d) => d.source.file),
      [VSC],
    );
  });
  await t.test('the same name twice in one file', () => {
    const r = run([vsc('{"servers": {"gh": {"command": "a"}, "gh": {"command": "b"}}}')]);
    assert.deepEqual(
      r.servers.map((s) => (s as { command: string }).command),
      ['a'],
    );
    assert.deepEqual(problems(r), [
      'warning .vscode/mcp.json: servers.gh: server "gh" is also defined earlier in this file (servers.gh), which takes precedence; this definition is ignored',
    ]);
  });
});

test('source selection: importFrom leaves out unlisted sources; --config replaces all', () => {
  const files = [
    vsc('{"servers": {"a": {"command": "x"}}}'),
    mcpj('{"mcpServers": {"b": {"command": "x"}}}'),
    cur('{"mcpServers": {"c": {"command": "x"}}}'),
  ];
  assert.deepEqual(
    run(files, { settings: { importFrom: ['cursor', 'vscode'] } }).servers.map((s) => s.name),
    ['c', 'a'],
  );
  const withCli = run([...files, cli('{"servers": {"z": {"command": "x"}}}')], {
    settings: { servers: { s: { command: 'x' } } },
  });
  assert.deepEqual(
    withCli.servers.map((s) => s.name),
    ['z'],
  );
  assert.deepEqual(withCli.files, ['/etc/lens.json']);
});

test('include/exclude come from settings', () => {
  const r = run([], { settings: { include: ['gh/*'], exclude: ['*/delete_*'] } });
  assert.deepEqual([r.include, r.exclude], [['gh/*'], ['*/delete_*']]);
});

test('problem offsets point at the offending text', async (t) => {
  const text =
    '{\n  "servers": {\n    "gh": { "type": "stdio", "args": "x" },\n    "web": { "type": "ftp", "url": "http://x" }\n  }\n}';
  const r = run([vsc(text)]);
  const at = (p: { offset?: number; length?: number }) => text.slice(p.offset!, p.offset! + p.length!);
  const cases = [
    { path: 'servers.gh.command', text: '"gh"' },
    { path: 'servers.gh.args', text: '"x"' },
    { path: 'servers.web.type', text: '"ftp"' },
  ];
  for (const c of cases) {
    await t.test(c.path, () => {
      const p = r.problems.find((q) => q.path === c.path);
      assert.ok(p, `problem at ${c.path}`);
      assert.equal(at(p), c.text);
    });
  }
  await t.test('invalid JSONC offset', () => {
    const bad = '{"servers": {,}}';
    const p = run([vsc(bad)]).problems[0];
    assert.equal(bad.slice(p.offset!, p.offset! + p.length!), ',');
  });
});

test('JSON paths quote names that are not identifiers', async (t) => {
  const cases = [
    {
      name: 'my.server',
      want: 'error .vscode/mcp.json: servers["my.server"].command: missing "command" for a stdio server',
    },
    {
      name: 'ms/playwright',
      want: 'error .vscode/mcp.json: servers["ms/playwright"].command: missing "command" for a stdio server',
    },
    {
      name: 'with-dash_1',
      want: 'error .vscode/mcp.json: servers.with-dash_1.command: missing "command" for a stdio server',
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () =>
      assert.deepEqual(problems(run([vsc(JSON.stringify({ servers: { [c.name]: { type: 'stdio' } } }))])), [c.want]),
    );
  }
  assert.deepEqual(problems(run([vsc('{"servers": {"": {"command": "x"}}}')])), [
    'error .vscode/mcp.json: servers[""]: server name must not be empty',
  ]);
});

test('where each source lives', async (t) => {
  const cases = [
    {
      platform: 'darwin',
      env: {},
      want: '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
      home: '/Users/u',
    },
    { platform: 'linux', env: {}, want: '/home/u/.config/Claude/claude_desktop_config.json', home: '/home/u' },
    {
      platform: 'linux',
      env: { XDG_CONFIG_HOME: '/xdg' },
      want: '/xdg/Claude/claude_desktop_config.json',
      home: '/home/u',
    },
    {
      platform: 'win32',
      env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
      want: 'C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      home: 'C:\\Users\\u',
    },
  ];
  for (const c of cases) {
    await t.test(`${c.platform} ${JSON.stringify(c.env)}`, () =>
      assert.equal(claudeDesktopConfigPath(c.home, c.env, c.platform), c.want),
    );
  }
  await t.test('candidates follow importFrom order, settings has no file', () => {
    assert.deepEqual(configCandidates(WS, ['cursor', 'settings', 'mcp-json', 'vscode', 'cursor'], HOME, {}, 'linux'), [
      { kind: 'cursor', path: CUR, folder: WS },
      { kind: 'cursor-user', path: `${HOME}/.cursor/mcp.json` },
      { kind: 'mcp-json', path: MCPJ, folder: WS },
      { kind: 'vscode-mcp-json', path: VSC, folder: WS },
    ]);
  });
});
