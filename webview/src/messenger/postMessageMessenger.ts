/** The VS Code webview transport: requests carry ids, the extension host answers by id. */
import type {
  DashboardEventName,
  DashboardMethod,
  DashboardParams,
  DashboardResult,
  HostMessage,
  WebviewRequestMessage,
} from '../../../protocol/webviewProtocol';
import { EventListeners, type DashboardMessenger } from './messenger';

/** The part of `acquireVsCodeApi()` the page uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PostMessageMessenger implements DashboardMessenger {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new EventListeners();

  constructor(
    private readonly vscode: VsCodeApi,
    target: Window,
  ) {
    target.addEventListener('message', (e: MessageEvent) => this.receive(e.data as HostMessage));
  }

  request<K extends DashboardMethod>(method: K, params: DashboardParams<K>): Promise<DashboardResult<K>> {
    const id = this.nextId++;
    const message: WebviewRequestMessage = { kind: 'request', id, method, params };
    return new Promise<DashboardResult<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.vscode.postMessage(message);
    });
  }

  onEvent(handler: Parameters<DashboardMessenger['onEvent']>[0]): () => void {
    return this.listeners.add(handler);
  }

  private receive(message: HostMessage | undefined): void {
    if (!message || typeof message !== 'object') return;
    if (message.kind === 'event') {
      this.listeners.emit({ event: message.event as DashboardEventName, data: message.data } as never);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.kind === 'response') pending.resolve(message.result);
    else pending.reject(new Error(message.message));
  }
}
