// Multi-root workspaces and Cursor's user-level config (#17 items 3 and 4), pure parts first:
// folder labels, names kept apart per folder, `${workspaceFolder}` per folder, approvals that
// never carry over to another folder, problems on the right file, include/exclude by either
// name; then the fs side on two real temp folders (what is read, what is watched).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { explainApproval } from '../../server/src/core/config/approval';
import { configFolders, displayPath, type ConfigFolder } from '../../server/src/core/config/folders';
import {
  formatProblem,
  resolveConfig,
  type ConfigFileText,
  type ResolveContext,
} from '../../server/src/core/config/resolve';
import { configCandidates, cursorUserConfigPath } from '../../server/src/core/config/sources';
import { createToolFilter } from '../../server/src/core/config/toolFilter';
import type { LoadedConfig } from '../../server/src/core/config/types';
import { configFilesToWatch, loadWorkspaceConfig } from '../../server/src/adapters/config/loadConfig';
import { DEFAULT_SETTINGS, type McpLensSettings } from '../../protocol/settings';

const A = '/work/api';
const B = '/work/web';
const HOME = '/home/u';
const CURSOR_USER = `${HOME}/.cursor/mcp.json`;

function run(files: ConfigFileText[], folders: ConfigFolder[], settings: Partial<McpLensSettings> = {}): LoadedConfig {
  const ctx: ResolveContext = {
    workspaceFolder: folders[0]!.path,
    folders,
    userHome: HOME,
    env: {},
    inputs: {},
    settings: { ...DEFAULT_SETTINGS, importFrom: ['vscode', 'mcp-json', 'cursor', 'settings'], ...settings },
    settingsFile: `${folders[0]!.path}/.vscode/settings.json`,
    readEnvFile: () => undefined,
  };
  return resolveConfig(files, ctx);
}
const vsc = (folder: string, servers: Record<string, unknown>): ConfigFileText => ({
  path: `${folder}/.vscode/mcp.json`,
  kind: 'vscode-mcp-json',
  text: JSON.stringify({ servers }),
  folder,
});
const mcpj = (folder: string, mcpServers: Record<string, unknown>): ConfigFileText => ({
  path: `${folder}/.mcp.json`,
  kind: 'mcp-json',
  text: JSON.stringify({ mcpServers }),
  folder,
});
const github = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
const twoFolders = () => configFolders([{ path: A }, { path: B }], A);

test('folder labels: the name in the workspace, unique, never empty, no slashes', async (t) => {
  const cases: { name: string; input: { path: string; name?: string }[]; want: (string | undefined)[] }[] = [
    { name: 'one folder has no label (names as written)', input: [{ path: A, name: 'api' }], want: [undefined] },
    { name: 'no folder: the fallback, unlabelled', input: [], want: [undefined] },
    { name: 'basenames by default', input: [{ path: A }, { path: B }], want: ['api', 'web'] },
    {
      name: "the workspace file's names win",
      input: [
        { path: A, name: 'Backend' },
        { path: B, name: 'Frontend' },
      ],
      want: ['Backend', 'Frontend'],
    },
    {
      name: 'same names get -2, -3 (case-insensitively)',
      input: [{ path: '/x/app' }, { path: '/y/app' }, { path: '/z/App' }],
      want: ['app', 'app-2', 'App-3'],
    },
    {
      name: 'slashes become -',
      input: [
        { path: A, name: 'team/api' },
        { path: B, name: 'a\\b' },
      ],
      want: ['team-api', 'a-b'],
    },
    {
      name: 'an empty or blank name is the basename',
      input: [
        { path: A, name: '' },
        { path: B, name: '  ' },
      ],
      want: ['api', 'web'],
    },
    { name: 'a name of slashes only is "-"', input: [{ path: A, name: '//' }, { path: B }], want: ['-', 'web'] },
    {
      name: 'the file-system root (no basename) is folder-N',
      input: [{ path: '/' }, { path: B }],
      want: ['folder-1', 'web'],
    },
    { name: 'the same path twice is read once', input: [{ path: A }, { path: A }], want: [undefined] },
  ];
  for (const c of cases) {
    await t.test(c.name, () =>
      assert.deepEqual(
        configFolders(c.input, '/fallback').map((f) => f.label),
        c.want,
      ),
    );
  }
  assert.deepEqual(configFolders([], '/fallback'), [{ path: '/fallback' }]);
  // A single folder's own settings are the workspace's settings: never read twice.
  assert.deepEqual(configFolders([{ path: A, servers: { x: {} } }], A), [{ path: A }]);
});

test('two folders each defining "github": both appear, named <folder>/<server>, each resolved in its own folder', () => {
  const entry = {
    command: './bin/server',
    args: ['${workspaceFolder}/data', '${workspaceFolderBasename}'],
    cwd: 'sub',
  };
  const r = run([vsc(A, { github, local: entry }), vsc(B, { github, local: entry })], twoFolders());
  assert.deepEqual(r.problems, []);
  assert.deepEqual(
    r.servers.map((s) => s.name),
    ['api/github', 'api/local', 'web/github', 'web/local'],
  );
  const local = (name: string) => {
    const s = r.servers.find((x) => x.name === name);
    assert.ok(s?.type === 'stdio');
    return [s.command, s.args, s.cwd];
  };
  assert.deepEqual(local('api/local'), [`${A}/bin/server`, [`${A}/data`, 'api'], `${A}/sub`]);
  assert.deepEqual(local('web/local'), [`${B}/bin/server`, [`${B}/data`, 'web'], `${B}/sub`]);
  const gh = r.servers.filter((s) => s.source.folder?.localName === 'github');
  assert.deepEqual(
    gh.map((s) => s.source),
    [
      {
        kind: 'vscode-mcp-json',
        file: `${A}/.vscode/mcp.json`,
        path: 'servers.github',
        folder: { path: A, label: 'api', localName: 'github' },
      },
      {
        kind: 'vscode-mcp-json',
        file: `${B}/.vscode/mcp.json`,
        path: 'servers.github',
        folder: { path: B, label: 'web', localName: 'github' },
      },
    ],
  );
  // The same definition in two folders: two fingerprints (each covers its folder).
  assert.notEqual(gh[0]!.fingerprint, gh[1]!.fingerprint);
  assert.deepEqual(
    r.folders.map((f) => f.label),
    ['api', 'web'],
  );
});

test('a single folder keeps names and fingerprints as they always were', () => {
  const single = run([vsc(A, { github })], configFolders([{ path: A }], A));
  const none = resolveConfig(
    [{ path: `${A}/.vscode/mcp.json`, kind: 'vscode-mcp-json', text: JSON.stringify({ servers: { github } }) }],
    {
      workspaceFolder: A,
      userHome: HOME,
      env: {},
      inputs: {},
      settings: DEFAULT_SETTINGS,
      settingsFile: `${A}/.vscode/settings.json`,
      readEnvFile: () => undefined,
    },
  );
  assert.deepEqual(
    single.servers.map((s) => [s.name, s.fingerprint, s.source.folder]),
    none.servers.map((s) => [s.name, s.fingerprint, undefined]),
  );
  assert.equal(single.servers[0]!.name, 'github');
});

test('approvals are per folder: approving api/github starts neither web/github nor a folder that later takes the name', () => {
  const r = run([vsc(A, { github }), vsc(B, { github })], twoFolders());
  const [api, web] = r.servers;
  assert.ok(api && web);
  const approvals = { [api.name]: api.fingerprint };
  assert.equal(explainApproval(api, { approvals, trusted: true }).decision, 'start');
  assert.equal(explainApproval(web, { approvals, trusted: true }).reason, 'not approved yet');
  // The folders renamed so that web is now labelled "api": same name, other folder, no start.
  const swapped = run(
    [vsc(B, { github })],
    configFolders(
      [
        { path: B, name: 'api' },
        { path: A, name: 'old' },
      ],
      B,
    ),
  ).servers[0]!;
  assert.equal(swapped.name, 'api/github');
  assert.equal(
    explainApproval(swapped, { approvals, trusted: true }).reason,
    'definition changed since it was approved',
  );
  // Workspace trust still gates every folder's servers.
  assert.equal(explainApproval(api, { approvals, trusted: false }).decision, 'untrusted');
});

test('problems name the right file and the folder-qualified server, shown after the folder label', () => {
  const r = run(
    [
      vsc(A, { ok: github }),
      vsc(B, { broken: { command: 42 } }),
      mcpj(B, { ok: github, dup: github }),
      vsc(B, { dup: github }),
    ],
    twoFolders(),
  );
  assert.deepEqual(
    r.problems.map((p) => [p.file, p.server, formatProblem(p, r.folders)]),
    [
      [
        `${B}/.vscode/mcp.json`,
        'web/broken',
        'web/.vscode/mcp.json: servers.broken.command: "command" must be a non-empty string',
      ],
      [
        `${B}/.mcp.json`,
        undefined,
        'web/.mcp.json: mcpServers.dup: server "web/dup" is also defined in web/.vscode/mcp.json (servers.dup), which takes precedence; this definition is ignored',
      ],
    ],
  );
  // api/ok and web/ok are two servers, not a duplicate.
  assert.deepEqual(
    r.servers.map((s) => s.name),
    ['api/ok', 'web/dup', 'web/ok'],
  );
  assert.deepEqual(
    r.disabled.map((d) => [d.name, d.source.folder?.localName]),
    [['web/broken', 'broken']],
  );
  assert.equal(displayPath('/elsewhere/x.json', r.folders), '/elsewhere/x.json');
  assert.equal(displayPath(`${A}/.vscode/mcp.json`, configFolders([{ path: A }], A)), '.vscode/mcp.json');
  // Nested folders: a file belongs to the deepest folder holding it.
  assert.equal(
    displayPath(`${A}/pkg/.mcp.json`, configFolders([{ path: A }, { path: `${A}/pkg` }], A)),
    'pkg/.mcp.json',
  );
  assert.equal(
    displayPath(
      `${A}/pkg/.mcp.json`,
      configFolders(
        [
          { path: A, name: 'root' },
          { path: `${A}/pkg`, name: 'p' },
        ],
        A,
      ),
    ),
    'p/.mcp.json',
  );
});

test("settings: the window's mcpLens.servers keep their names; a folder's own are that folder's", () => {
  const folders = configFolders(
    [{ path: A }, { path: B, servers: { memory: { command: 'mem', args: ['${workspaceFolder}'] } } }],
    A,
  );
  const r = run([], folders, { servers: { shared: { command: 'shared' } } });
  assert.deepEqual(
    r.servers.map((s) => [s.name, s.source.file, s.source.path, s.type === 'stdio' ? s.args : []]),
    [
      ['shared', `${A}/.vscode/settings.json`, 'mcpLens.servers.shared', []],
      ['web/memory', `${B}/.vscode/settings.json`, 'mcpLens.servers.memory', [B]],
    ],
  );
  // Without "settings" in importFrom, neither is read.
  assert.deepEqual(
    run([], folders, { servers: { shared: { command: 'shared' } }, importFrom: ['vscode'] }).servers,
    [],
  );
});

test("include/exclude: a folder's server also answers to its name in the folder", async (t) => {
  const cases: {
    include: string[];
    exclude: string[];
    server: string;
    local?: string;
    tool: string;
    allowed: boolean;
    why: string;
  }[] = [
    {
      include: [],
      exclude: ['github/delete_*'],
      server: 'api/github',
      local: 'github',
      tool: 'delete_repo',
      allowed: false,
      why: "a pattern for the folder's server hides it in every folder",
    },
    {
      include: [],
      exclude: ['github'],
      server: 'web/github',
      local: 'github',
      tool: 'x',
      allowed: false,
      why: 'a server-only pattern too',
    },
    {
      include: [],
      exclude: ['api/github/*'],
      server: 'api/github',
      local: 'github',
      tool: 'x',
      allowed: false,
      why: "with the folder: that folder's",
    },
    {
      include: [],
      exclude: ['api/github/*'],
      server: 'web/github',
      local: 'github',
      tool: 'x',
      allowed: true,
      why: "… and not the other folder's",
    },
    {
      include: [],
      exclude: ['*/delete_*'],
      server: 'api/github',
      local: 'github',
      tool: 'Delete_Repo',
      allowed: false,
      why: '*/ spans the label',
    },
    {
      include: ['github/*'],
      exclude: [],
      server: 'api/github',
      local: 'github',
      tool: 'x',
      allowed: true,
      why: "include by the folder's name",
    },
    {
      include: ['api/github/*'],
      exclude: [],
      server: 'web/github',
      local: 'github',
      tool: 'x',
      allowed: false,
      why: "include with the folder is that folder's",
    },
    {
      include: ['github/*'],
      exclude: ['api/*'],
      server: 'api/github',
      local: 'github',
      tool: 'x',
      allowed: true,
      why: 'api/* names server "api" (tool "github/x" does not exist): as before',
    },
    { include: [], exclude: ['github/*'], server: 'github', tool: 'x', allowed: false, why: 'no folder: as before' },
    {
      include: [],
      exclude: ['api/github/*'],
      server: 'github',
      tool: 'x',
      allowed: true,
      why: 'no folder: a folder pattern does not reach it',
    },
    {
      include: [],
      exclude: [],
      server: 'api/github',
      local: 'git\u0000hub',
      tool: 'x',
      allowed: false,
      why: 'NUL in either name never passes',
    },
  ];
  for (const c of cases) {
    await t.test(c.why, () =>
      assert.equal(createToolFilter(c.include, c.exclude)(c.server, c.tool, c.local), c.allowed),
    );
  }
});

test("Cursor's user-level config: where it lives on each OS", async (t) => {
  const cases = [
    { platform: 'linux', home: '/home/u', want: '/home/u/.cursor/mcp.json' },
    { platform: 'darwin', home: '/Users/u', want: '/Users/u/.cursor/mcp.json' },
    { platform: 'win32', home: 'C:\\Users\\u', want: 'C:\\Users\\u\\.cursor\\mcp.json' },
  ];
  for (const c of cases) await t.test(c.platform, () => assert.equal(cursorUserConfigPath(c.home, c.platform), c.want));
  await t.test("read after every folder's .cursor/mcp.json, only when importFrom has cursor", () => {
    assert.deepEqual(configCandidates([A, B], ['cursor', 'vscode'], HOME, {}, 'linux'), [
      { kind: 'cursor', path: `${A}/.cursor/mcp.json`, folder: A },
      { kind: 'cursor', path: `${B}/.cursor/mcp.json`, folder: B },
      { kind: 'cursor-user', path: CURSOR_USER },
      { kind: 'vscode-mcp-json', path: `${A}/.vscode/mcp.json`, folder: A },
      { kind: 'vscode-mcp-json', path: `${B}/.vscode/mcp.json`, folder: B },
    ]);
    assert.ok(
      !configCandidates(A, ['vscode', 'mcp-json', 'settings'], HOME, {}, 'linux').some((c) => c.kind === 'cursor-user'),
    );
    // The home folder opened as the workspace: its .cursor/mcp.json is read once, as the workspace's.
    assert.deepEqual(configCandidates(HOME, ['cursor'], HOME, {}, 'linux'), [
      { kind: 'cursor', path: CURSOR_USER, folder: HOME },
    ]);
  });
});

test("Cursor's user-level servers: not named after a folder, need approval per workspace even where the workspace is trusted or not", () => {
  const files: ConfigFileText[] = [
    {
      path: `${A}/.cursor/mcp.json`,
      kind: 'cursor',
      text: JSON.stringify({ mcpServers: { both: { command: 'workspace-one' } } }),
      folder: A,
    },
    {
      path: CURSOR_USER,
      kind: 'cursor-user',
      text: JSON.stringify({
        mcpServers: { both: { command: 'user-one' }, mine: { command: 'm', args: ['${workspaceFolder}'] } },
      }),
    },
  ];
  const single = run(files, configFolders([{ path: A }], A), { importFrom: ['cursor'] });
  assert.deepEqual(
    single.servers.map((s) => [s.name, s.source.kind]),
    [
      ['both', 'cursor'],
      ['mine', 'cursor-user'],
    ],
  );
  assert.deepEqual(
    single.problems.map((p) => formatProblem(p, single.folders)),
    [
      `${CURSOR_USER}: mcpServers.both: server "both" is also defined in .cursor/mcp.json (mcpServers.both), which takes precedence; this definition is ignored`,
    ],
  );
  const mine = single.servers[1]!;
  assert.ok(mine.type === 'stdio');
  assert.deepEqual(mine.args, [A], '${workspaceFolder} is the (first) workspace folder');
  assert.equal(explainApproval(mine, { approvals: {}, trusted: true }).decision, 'needs-approval');
  assert.equal(
    explainApproval(mine, { approvals: {}, trusted: false }).decision,
    'needs-approval',
    "the user's own file: trust does not gate it, approval does",
  );
  assert.equal(explainApproval(mine, { approvals: { mine: mine.fingerprint }, trusted: false }).decision, 'start');
  assert.equal(explainApproval(mine, { approvals: {}, trusted: true, autoApprove: true }).decision, 'start');
  // In a multi-root workspace the user's file is not a folder's: its names stay as written.
  const multi = run([{ ...files[1]! }], twoFolders(), { importFrom: ['cursor'] });
  assert.deepEqual(
    multi.servers.map((s) => s.name),
    ['both', 'mine'],
  );
  // Without cursor in importFrom, the file is not read even when handed over.
  assert.deepEqual(run(files, twoFolders(), { importFrom: ['vscode'] }).servers, []);
});

test("loadWorkspaceConfig on two real folders: each folder's files read, watched and kept apart", (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-lens-folders-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const [a, b, home] = ['api', 'web', 'home'].map((n) => path.join(dir, n)) as [string, string, string];
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write(
    path.join(a, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { github: { command: 'gh', cwd: '${workspaceFolder}' } } }),
  );
  write(
    path.join(b, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { github: { command: 'gh', cwd: '${workspaceFolder}' } } }),
  );
  write(path.join(b, '.mcp.json'), '{ "mcpServers": { "memory": { "command": "mem" } }');
  write(path.join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { cursorOwn: { command: 'c' } } }));
  const settings = {
    ...DEFAULT_SETTINGS,
    importFrom: ['vscode', 'mcp-json', 'cursor'] as McpLensSettings['importFrom'],
  };
  const opts = {
    workspaceFolder: a,
    folders: [
      { path: a, name: 'api' },
      { path: b, name: 'web' },
    ],
    settings,
    userHome: home,
    env: {},
  };
  const r = loadWorkspaceConfig(opts);
  assert.deepEqual(
    r.servers.map((s) => [s.name, s.type === 'stdio' ? s.cwd : '', s.source.kind]),
    [
      ['api/github', a, 'vscode-mcp-json'],
      ['web/github', b, 'vscode-mcp-json'],
      ['cursorOwn', undefined, 'cursor-user'],
    ],
  );
  // web's .mcp.json does not parse: one error on that file, shown under its folder's label.
  assert.deepEqual(
    r.problems.map((p) => formatProblem(p, r.folders)),
    ['web/.mcp.json:1:51: not valid JSON: expected a closing brace }'],
  );
  assert.deepEqual(configFilesToWatch(opts), [
    path.join(a, '.vscode', 'mcp.json'),
    path.join(b, '.vscode', 'mcp.json'),
    path.join(a, '.mcp.json'),
    path.join(b, '.mcp.json'),
    path.join(a, '.cursor', 'mcp.json'),
    path.join(b, '.cursor', 'mcp.json'),
    path.join(home, '.cursor', 'mcp.json'),
  ]);
});
