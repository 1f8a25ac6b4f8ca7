/**
 * What the page remembers across reloads: the query and (in a browser) the theme choice.
 * VS Code keeps it with getState/setState; a browser keeps it in localStorage.
 */
import type { ThemeChoice } from './theme';
import type { VsCodeApi } from './messenger/postMessageMessenger';

export interface PageState {
  query: string;
  theme: ThemeChoice;
}

export interface PageStateStore {
  load(): PageState;
  save(patch: Partial<PageState>): void;
}

const DEFAULTS: PageState = { query: '', theme: 'auto' };

export function vsCodeStateStore(api: VsCodeApi): PageStateStore {
  return {
    load: () => ({ ...DEFAULTS, ...((api.getState() as Partial<PageState> | undefined) ?? {}) }),
    save(patch) {
      api.setState({ ...this.load(), ...patch });
    },
  };
}

const KEY = 'mcpLens.dashboard';

export function localStateStore(storage: Storage | undefined): PageStateStore {
  const read = (): Partial<PageState> => {
    try {
      return JSON.parse(storage?.getItem(KEY) ?? '{}') as Partial<PageState>;
    } catch {
      return {};
    }
  };
  return {
    load: () => ({ ...DEFAULTS, ...read() }),
    save(patch) {
      try {
        storage?.setItem(KEY, JSON.stringify({ ...DEFAULTS, ...read(), ...patch }));
      } catch {
        // storage full or blocked: the state is a convenience, not needed to work
      }
    },
  };
}
