/**
 * Dashboard entry. The same bundle runs in a VS Code webview (acquireVsCodeApi exists) and
 * in a browser served by `mcp-lens serve --http`; only the messenger and the state store
 * differ. Everything else talks to the host through the typed messenger.
 */
import type { SearchModeInfo } from '../../protocol/model';
import type { DashboardEvent } from '../../protocol/webviewProtocol';
import { h, replaceChildren } from './dom';
import { HttpMessenger } from './messenger/httpMessenger';
import type { DashboardMessenger } from './messenger/messenger';
import { PostMessageMessenger, type VsCodeApi } from './messenger/postMessageMessenger';
import { localStateStore, vsCodeStateStore, type PageStateStore } from './pageState';
import { adoptStyles, browserTheme, followVsCodeTheme } from './theme';
import { ConsentView } from './views/consentView';
import { IndexView } from './views/indexView';
import { LearnedView } from './views/learnedView';
import { RetrievalView } from './views/retrievalView';
import { SavingsView } from './views/savingsView';
import { SearchView } from './views/searchView';
import { ServersView } from './views/serversView';
import { UsageView } from './views/usageView';

declare function acquireVsCodeApi(): VsCodeApi;

interface Host {
  messenger: DashboardMessenger;
  state: PageStateStore;
  inVsCode: boolean;
}

function connect(): Host {
  if (typeof acquireVsCodeApi === 'function') {
    const api = acquireVsCodeApi();
    return { messenger: new PostMessageMessenger(api, window), state: vsCodeStateStore(api), inVsCode: true };
  }
  let storage: Storage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    storage = undefined;
  }
  return { messenger: new HttpMessenger(), state: localStateStore(storage), inVsCode: false };
}

function start(): void {
  adoptStyles(document);
  const { messenger, state, inVsCode } = connect();
  const saved = state.load();
  const status = h('span', { class: 'mode', attrs: { id: 'conn-status' } });
  const header = h('header', { class: 'top' }, h('h1', {}, 'MCP Lens'), status, h('span', { class: 'spacer' }));
  if (inVsCode) followVsCodeTheme(document);
  else header.append(browserTheme(document, saved.theme, (theme) => state.save({ theme })));

  const savings = new SavingsView();
  const search = new SearchView(messenger, saved.query, (query) => state.save({ query }));
  const servers = new ServersView(messenger);
  const index = new IndexView(messenger);
  const usage = new UsageView();
  const retrieval = new RetrievalView();
  const learned = new LearnedView(messenger, () => void refreshUsage());
  const consent = new ConsentView(messenger, () => void refreshUsage());
  const root = h(
    'main',
    {},
    header,
    h(
      'div',
      { class: 'grid' },
      savings.element,
      search.element,
      servers.element,
      index.element,
      usage.element,
      retrieval.element,
      learned.element,
      consent.element,
    ),
  );
  replaceChildren(document.body, root);

  const refreshUsage = () =>
    Promise.all([
      messenger.request('usage', {}),
      messenger.request('learnedSearch', {}),
      messenger.request('consent', {}),
    ]).then(([u, l, c]) => {
      usage.update(u);
      retrieval.update(u);
      learned.update(l);
      consent.update(c);
    }, showError);
  const showError = (err: unknown) =>
    replaceChildren(
      status,
      h('span', { class: 'conn-error' }, `Not connected: ${err instanceof Error ? err.message : String(err)}`),
    );
  const showMode = (mode: SearchModeInfo) => {
    replaceChildren(status, mode.label);
    retrieval.setMode(mode.kind);
  };

  messenger.onEvent((e: DashboardEvent) => {
    if (e.event === 'state') {
      servers.update(e.data.servers);
      index.update(e.data.index);
      savings.update(e.data.stats);
      showMode(e.data.index.mode);
      void refreshUsage();
    } else {
      index.pullProgress(e.data);
    }
  });
  Promise.all([
    messenger.request('listServers', {}),
    messenger.request('indexStatus', {}),
    messenger.request('stats', {}),
  ]).then(([s, i, st]) => {
    servers.update(s);
    index.update(i);
    savings.update(st);
    showMode(i.mode);
  }, showError);
  void refreshUsage();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
