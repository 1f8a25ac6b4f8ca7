// A multi-root workspace through the LSP sidecar as the extension runs it (dist/server.js over
// Node IPC), for #17 item 3: two real temp folders, each with its own .vscode/mcp.json defining
// a server called "memory" (the real server-memory from node_modules, its file under
// ${workspaceFolder}). Both appear, as api/memory and web/memory; approving one does not approve
// the other; a tool call reaches the right folder's server; the second folder's file is watched
// live and its problems land on its own file; a folder's own mcpLens.servers are that folder's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApprovalNeededNotification,
  CallToolRequest,
  ConfigProblemsNotification,
  ListToolsRequest,
  SearchRequest,
  StateChangedNotification,
  UpdateSettingsNotification,
  type SidecarInitOptions,
  type StateChangedParams,
  type UpdateSettingsParams,
  type WorkspaceFolderInfo,
} from '../../protocol/lspProtocol';
import { sanitizeSettings, type RawServerEntry } from '../../protocol/settings';
import { startSidecarProcess } from '../fixtures/lsp/sidecarProcess';

const ROOT = join(__dirname, '..', '..');
const MEMORY_JS = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const GATED = join(ROOT, 'test', 'fixtures', 'servers', 'gated.mjs');

/** server-memory keeping its graph in the declaring folder: `${workspaceFolder}` decides which. */
const memory: RawServerEntry = {
  type: 'stdio',
  command: process.execPath,
  args: [MEMORY_JS],
  env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' },
};
const gated = (prefix: string): RawServerEntry => ({
  type: 'stdio',
  command: process.execPath,
  args: [GATED, '--prefix', prefix],
});

const ready =
  (...names: string[]) =>
  (p: StateChangedParams) =>
    names.every((n) => p.servers.some((s) => s.name === n && s.state === 'ready' && s.toolCount > 0));

test(
  'two folders each defining "memory": both served, approved, called and watched per folder',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-multiroot-'));
    const api = join(dir, 'api');
    const web = join(dir, 'web-app');
    const mcpJson = (folder: string) => join(folder, '.vscode', 'mcp.json');
    const write = (folder: string, servers: Record<string, unknown>) =>
      writeFileSync(mcpJson(folder), JSON.stringify({ servers }, null, 2));
    for (const f of [api, web]) mkdirSync(join(f, '.vscode'), { recursive: true });
    write(api, { memory });
    write(web, { memory });
    const settings = sanitizeSettings({ embedding: { enabled: false }, importFrom: ['vscode', 'settings'] });
    // The second folder is named "web" in the .code-workspace file.
    const folders: WorkspaceFolderInfo[] = [
      { path: api, name: 'api' },
      { path: web, name: 'web' },
    ];
    const init: SidecarInitOptions = {
      storageDir: join(dir, 'storage'),
      workspaceFolders: [api, web],
      folders,
      settings,
      trusted: true,
      approvals: {},
      inputs: {},
    };
    mkdirSync(init.storageDir);
    const s = await startSidecarProcess(init);
    const update = (approvals: Record<string, string>, more: Partial<UpdateSettingsParams> = {}) =>
      s.conn.sendNotification(UpdateSettingsNotification, {
        settings,
        approvals,
        inputs: {},
        trusted: true,
        folders,
        ...more,
      });
    try {
      // Both folders' "memory" wait for approval, each under its folder's name, from its own file.
      const asked = await s.next(
        ApprovalNeededNotification,
        (p) => p.servers.length === 2,
        'both memory servers await approval',
      );
      const byName = new Map(asked.servers.map((x) => [x.name, x]));
      assert.deepEqual([...byName.keys()].sort(), ['api/memory', 'web/memory']);
      assert.equal(byName.get('api/memory')!.sourceFile, mcpJson(api));
      assert.equal(byName.get('web/memory')!.sourceFile, mcpJson(web));
      assert.notEqual(
        byName.get('api/memory')!.fingerprint,
        byName.get('web/memory')!.fingerprint,
        'the same definition in two folders is two approvals',
      );

      // Approving api/memory starts it alone; web/memory keeps waiting.
      const approvals: Record<string, string> = { 'api/memory': byName.get('api/memory')!.fingerprint };
      await update(approvals);
      const one = await s.next(StateChangedNotification, ready('api/memory'), 'api/memory ready');
      const webRow = one.servers.find((x) => x.name === 'web/memory');
      assert.equal(webRow?.state, 'awaiting-approval');
      assert.equal(webRow?.localName, 'memory');
      assert.equal(one.servers.find((x) => x.name === 'api/memory')?.sourceFile, mcpJson(api));

      // Both approved: both folders' tools are in the catalog, kept apart by server.
      approvals['web/memory'] = byName.get('web/memory')!.fingerprint;
      await update(approvals);
      await s.next(StateChangedNotification, ready('api/memory', 'web/memory'), 'both ready');
      const tools = await s.conn.sendRequest(ListToolsRequest);
      const create = (server: string) => tools.find((t) => t.server === server && t.originalName === 'create_entities');
      assert.ok(
        create('api/memory') && create('web/memory'),
        `both folders' create_entities: ${tools.map((t) => t.name).join(', ')}`,
      );
      assert.notEqual(create('api/memory')!.name, create('web/memory')!.name);
      const found = await s.conn.sendRequest(SearchRequest, {
        query: 'create entities in the knowledge graph',
        limit: 10,
      });
      const servers = new Set(found.hits.filter((h) => h.originalName === 'create_entities').map((h) => h.server));
      assert.deepEqual([...servers].sort(), ['api/memory', 'web/memory'], "search finds both folders' tool");

      // A call to web's tool reaches web's server: its graph is written in web, not in api.
      const entity = { name: 'multi-root', entityType: 'test', observations: ['written through web/memory'] };
      const outcome = await s.conn.sendRequest(CallToolRequest, {
        name: create('web/memory')!.name,
        arguments: { entities: [entity] },
      });
      assert.equal(outcome.isError, false, JSON.stringify(outcome));
      assert.match(readFileSync(join(web, 'memory.jsonl'), 'utf8'), /written through web\/memory/);
      assert.ok(!existsSync(join(api, 'memory.jsonl')), '${workspaceFolder} of web/memory is web');

      // The second folder's file is watched live: a new server there waits for approval...
      write(web, { memory, extra: gated('extra'), broken: { type: 'stdio', command: 42 } });
      await s.next(
        ApprovalNeededNotification,
        (p) => p.servers.some((x) => x.name === 'web/extra'),
        'web/extra awaits approval',
      );
      // ...and its problems are on its own file, named with the folder.
      const problems = await s.next(
        ConfigProblemsNotification,
        (p) => p.problems.some((x) => x.server === 'web/broken'),
        'web/broken reported',
      );
      const broken = problems.problems.find((x) => x.server === 'web/broken')!;
      assert.equal(broken.file, mcpJson(web));
      assert.equal(broken.path, 'servers.broken.command');
      assert.equal(
        readFileSync(mcpJson(web), 'utf8').slice(broken.offset, broken.offset! + broken.length!),
        '42',
        "the diagnostic range is in web's file",
      );
      // A syntax error in web's file: one problem on that file; both folders' servers keep running.
      writeFileSync(mcpJson(web), '{ "servers": { "memory": ');
      const syntax = await s.next(
        ConfigProblemsNotification,
        (p) => p.problems.some((x) => /not valid JSON/.test(x.message)),
        'a syntax error',
      );
      assert.deepEqual(
        syntax.problems.filter((x) => /not valid JSON/.test(x.message)).map((x) => x.file),
        [mcpJson(web)],
      );
      const during = await s.next(
        StateChangedNotification,
        (p) => p.servers.some((x) => x.configFile && x.name === 'web/.vscode/mcp.json'),
        'the file row, shown under its folder',
      );
      assert.equal(during.servers.find((x) => x.name === 'web/memory')?.state, 'ready');
      assert.equal(during.servers.find((x) => x.name === 'api/memory')?.state, 'ready');
      write(web, { memory });

      // A folder's own mcpLens.servers (its .vscode/settings.json) are that folder's.
      await update(approvals, { folders: [folders[0]!, { ...folders[1]!, servers: { pinger: gated('pinger') } }] });
      const fromSettings = await s.next(
        StateChangedNotification,
        (p) => p.servers.some((x) => x.name === 'web/pinger'),
        'web/pinger listed',
      );
      const pinger = fromSettings.servers.find((x) => x.name === 'web/pinger')!;
      assert.deepEqual(
        [pinger.source, pinger.sourceFile, pinger.state, pinger.localName],
        ['settings', join(web, '.vscode', 'settings.json'), 'awaiting-approval', 'pinger'],
      );
      assert.equal(s.stdout.join(''), '', 'the sidecar writes nothing to stdout');
    } finally {
      const code = await s.close();
      rmSync(dir, { recursive: true, force: true });
      assert.equal(code, 0, 'the sidecar exits cleanly');
    }
  },
);
