// MCP Apps behind MCP Lens, the pure parts: the `ui://` URIs hosts read views by
// (core/mcpApps.ts) and which tool a host's own tools/call names (core/hostCalls.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  appMayCall,
  appOnlyMeta,
  isAppOnly,
  rendersApps,
  toolViewUri,
  uiUris,
  withViewUri,
} from '../../server/src/core/mcpApps';
import { resolveHostCall, type HostCallCatalog } from '../../server/src/core/hostCalls';
import type { CatalogTool } from '../../server/src/core/catalog';
import { buildCatalog } from '../../server/src/app/catalogBuilder';
import type { UpstreamResource, UpstreamTool } from '../../server/src/adapters/upstream/types';

describe('ui:// URIs', () => {
  test('a URI one server uses keeps its spelling; one two servers use is rewritten for each, whatever their order', () => {
    const uses = [
      { server: 'b', uri: 'ui://shared/view.html' },
      { server: 'basic', uri: 'ui://get-time/mcp-app.html' },
      { server: 'a', uri: 'ui://shared/view.html' },
    ];
    const ui = uiUris(uses);
    assert.equal(ui.exposed('basic', 'ui://get-time/mcp-app.html'), 'ui://get-time/mcp-app.html');
    assert.equal(ui.exposed('a', 'ui://shared/view.html'), 'ui://mcp-lens/a/shared/view.html');
    assert.equal(ui.exposed('b', 'ui://shared/view.html'), 'ui://mcp-lens/b/shared/view.html');
    assert.deepEqual(ui.resolve('ui://mcp-lens/b/shared/view.html'), { server: 'b', uri: 'ui://shared/view.html' });
    assert.deepEqual(ui.resolve('ui://get-time/mcp-app.html'), { server: 'basic', uri: 'ui://get-time/mcp-app.html' });
    assert.equal(ui.resolve('ui://shared/view.html'), undefined, 'a shared URI names no one server');
    assert.equal(uiUris([...uses].reverse()).key, ui.key);
    assert.equal(uiUris(uses.slice(1)).key, '[]');
  });

  test("a server's own URI spelled like a rewrite is not taken from it", () => {
    const ui = uiUris([
      { server: 'a', uri: 'ui://v' },
      { server: 'b', uri: 'ui://v' },
      { server: 'c', uri: 'ui://mcp-lens/a/v' },
    ]);
    assert.deepEqual(ui.resolve('ui://mcp-lens/a/v'), { server: 'c', uri: 'ui://mcp-lens/a/v' });
    assert.match(ui.exposed('a', 'ui://v'), /^ui:\/\/mcp-lens\/a~[0-9a-z]{6}\/v$/);
    assert.deepEqual(ui.resolve(ui.exposed('a', 'ui://v')), { server: 'a', uri: 'ui://v' });
  });

  test("a tool's view, visibility and the keys ext-apps sets", () => {
    const meta = { ui: { resourceUri: 'ui://x/v.html', visibility: ['app'] }, 'ui/resourceUri': 'ui://x/v.html', k: 1 };
    assert.equal(toolViewUri(meta), 'ui://x/v.html');
    assert.equal(toolViewUri({ 'ui/resourceUri': 'ui://old' }), 'ui://old');
    assert.equal(toolViewUri({ ui: { resourceUri: 'https://not-a-view' } }), undefined);
    assert.equal(isAppOnly(meta), true);
    assert.equal(isAppOnly({ ui: { visibility: ['model', 'app'] } }), false);
    assert.equal(isAppOnly(undefined), false);
    assert.equal(appMayCall({ ui: { visibility: ['model'] } }), false);
    assert.equal(appMayCall(undefined), true);
    assert.deepEqual(withViewUri(meta, 'ui://y'), {
      ui: { resourceUri: 'ui://y', visibility: ['app'] },
      'ui/resourceUri': 'ui://y',
      k: 1,
    });
    assert.deepEqual(appOnlyMeta({ ui: { resourceUri: 'ui://y' } }), {
      ui: { resourceUri: 'ui://y', visibility: ['app'] },
    });
  });

  test('a client renders apps when it declared the extension for HTML views', () => {
    const ext = (v: object) => ({ extensions: { 'io.modelcontextprotocol/ui': v } });
    assert.equal(rendersApps(ext({ mimeTypes: ['text/html;profile=mcp-app'] })), true);
    assert.equal(rendersApps(ext({})), true);
    assert.equal(rendersApps(ext({ mimeTypes: ['application/x-other'] })), false);
    assert.equal(rendersApps({}), false);
    assert.equal(rendersApps(undefined), false);
  });
});

describe('the catalog and MCP Apps', () => {
  const tool = (server: string, name: string, _meta?: Record<string, unknown>): UpstreamTool => ({
    server,
    name,
    description: name,
    inputSchema: { type: 'object' },
    ...(_meta && { _meta }),
  });
  const resource = (server: string, uri: string): UpstreamResource => ({ server, uri, name: uri });

  test('app-only tools are apart; views keep their URIs unless shared; other resources keep our scheme', () => {
    const catalog = buildCatalog(
      [
        tool('a', 'show', { ui: { resourceUri: 'ui://v' } }),
        tool('a', 'bump', { ui: { resourceUri: 'ui://v', visibility: ['app'] } }),
        tool('b', 'show', { ui: { resourceUri: 'ui://v' }, 'ui/resourceUri': 'ui://v' }),
        tool('c', 'time', { ui: { resourceUri: 'ui://time' } }),
      ],
      [],
      [resource('a', 'ui://v'), resource('c', 'ui://time'), resource('c', 'file:///x')],
      () => true,
    );
    assert.deepEqual(
      catalog.tools.map((t) => t.name),
      ['a_show', 'b_show', 'c_time'],
    );
    assert.deepEqual(
      catalog.appTools.map((t) => t.name),
      ['a_bump'],
    );
    assert.deepEqual(catalog.byName.get('b_show')!._meta, {
      ui: { resourceUri: 'ui://mcp-lens/b/v' },
      'ui/resourceUri': 'ui://mcp-lens/b/v',
    });
    assert.deepEqual(catalog.appTools[0]!._meta, { ui: { resourceUri: 'ui://mcp-lens/a/v', visibility: ['app'] } });
    assert.deepEqual(
      catalog.resources.map((r) => r.uri),
      ['ui://mcp-lens/a/v', 'ui://time', 'mcp-lens://c/file%3A%2F%2F%2Fx'],
    );
  });
});

describe("a host's own tools/call", () => {
  const t = (server: string, originalName: string, _meta?: Record<string, unknown>): CatalogTool => ({
    key: `${server}/${originalName}`,
    name: `${server}_${originalName}`,
    server,
    originalName,
    description: '',
    inputSchema: {},
    ...(_meta && { _meta }),
  });
  const view = (uri: string, extra: Record<string, unknown> = {}) => ({ ui: { resourceUri: uri, ...extra } });
  const tools = [
    t('basic', 'get-time', view('ui://time')),
    t('appA', 'show', view('ui://mcp-lens/appA/v')),
    t('appB', 'show', view('ui://mcp-lens/appB/v')),
    t('model', 'only', { ui: { visibility: ['model'] } }),
    t('get', 'time'),
    t('plain', 'echo'),
  ];
  const appTools = [
    t('appA', 'bump', view('ui://mcp-lens/appA/v', { visibility: ['app'] })),
    t('appB', 'bump', view('ui://mcp-lens/appB/v', { visibility: ['app'] })),
  ];
  const views: Record<string, string> = {
    'ui://time': 'basic',
    'ui://mcp-lens/appA/v': 'appA',
    'ui://mcp-lens/appB/v': 'appB',
  };
  const catalog: HostCallCatalog = {
    findTool: (n) => tools.find((x) => x.name === n),
    tools,
    appTools,
    viewServer: (uri) => views[uri],
  };
  const target = (name: string, viewUris: string[] = []) => {
    const r = resolveHostCall(name, viewUris, catalog);
    return r === undefined ? undefined : 'tool' in r ? r.tool.key : r.problem;
  };

  test("MCP Lens's names, app-only ones included", () => {
    assert.equal(target('plain_echo'), 'plain/echo');
    assert.equal(target('appA_bump'), 'appA/bump');
  });

  test("a server's own name reaches the one server whose views the session read", () => {
    assert.equal(target('bump', ['ui://mcp-lens/appA/v']), 'appA/bump');
    assert.equal(target('bump', ['ui://mcp-lens/appB/v']), 'appB/bump');
    assert.equal(target('get-time', ['ui://time']), 'basic/get-time');
    // Before the session read a view: any server with views, when only one has the name.
    assert.equal(target('get-time'), 'basic/get-time');
    assert.equal(target('echo'), undefined, "a server without views is no view's");
    assert.equal(target('echo', ['ui://time']), undefined, "never another server's tool");
    assert.equal(target('only'), undefined, 'a tool views may not call');
    // Named as only a view names it: not counted as the agent's call.
    const viewCall = (name: string, uris: string[] = []) => {
      const r = resolveHostCall(name, uris, catalog);
      return r && 'tool' in r ? r.view === true : undefined;
    };
    assert.deepEqual(
      [viewCall('bump', ['ui://mcp-lens/appA/v']), viewCall('appA_bump'), viewCall('plain_echo')],
      [true, true, false],
    );
  });

  test('a name that fits two servers is refused, both named', () => {
    const problem = target('bump', ['ui://mcp-lens/appA/v', 'ui://mcp-lens/appB/v'])!;
    assert.match(problem, /"appA_bump" \(server "appA"[^)]*\), "appB_bump" \(server "appB"/);
    assert.match(target('bump')!, /more than one server/);
    // MCP Lens's name of one server's tool, and another's own name, for a session showing the other's view.
    const crossing: HostCallCatalog = { ...catalog, tools: [...tools, t('appA', 'get_time')] };
    const r = resolveHostCall('get_time', ['ui://mcp-lens/appA/v'], crossing);
    assert.ok(r && 'problem' in r && /"get_time" \(server "get"/.test(r.problem), JSON.stringify(r));
  });
});
