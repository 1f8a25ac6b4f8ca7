/**
 * The browser transport: POST /api/<method> with a JSON body, pushed events over
 * server-sent events at GET /api/events. The session cookie set by `/?token=…` carries the
 * authorization, so nothing secret lives in the page.
 */
import {
  DASHBOARD_API_PREFIX,
  DASHBOARD_EVENTS_PATH,
  type DashboardEvents,
  type DashboardEventName,
  type DashboardMethod,
  type DashboardParams,
  type DashboardResult,
} from '../../../protocol/webviewProtocol';
import { EventListeners, type DashboardMessenger } from './messenger';

const EVENT_NAMES: DashboardEventName[] = ['state', 'pullProgress'];

export class HttpMessenger implements DashboardMessenger {
  private readonly listeners = new EventListeners();
  private source: EventSource | undefined;

  constructor(private readonly base: string = '') {}

  async request<K extends DashboardMethod>(method: K, params: DashboardParams<K>): Promise<DashboardResult<K>> {
    const res = await fetch(`${this.base}${DASHBOARD_API_PREFIX}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(params ?? {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(errorText(res.status, text));
    return JSON.parse(text) as DashboardResult<K>;
  }

  onEvent(handler: Parameters<DashboardMessenger['onEvent']>[0]): () => void {
    this.connect();
    return this.listeners.add(handler);
  }

  /** One EventSource for all listeners; the browser reconnects it by itself. */
  private connect(): void {
    if (this.source) return;
    const source = new EventSource(`${this.base}${DASHBOARD_EVENTS_PATH}`, { withCredentials: true });
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as DashboardEvents[typeof name];
        this.listeners.emit({ event: name, data } as never);
      });
    }
    this.source = source;
  }
}

function errorText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: fall through to the plain body
  }
  return `HTTP ${status}: ${body.slice(0, 200)}`;
}
