/**
 * The page talks to its host through one typed messenger; which transport carries the
 * messages (VS Code postMessage or HTTP + server-sent events) is picked once in main.ts.
 */
import type {
  DashboardEvent,
  DashboardMethod,
  DashboardParams,
  DashboardResult,
} from '../../../protocol/webviewProtocol';

export interface DashboardMessenger {
  /** Sends one request; rejects with the host's error message. */
  request<K extends DashboardMethod>(method: K, params: DashboardParams<K>): Promise<DashboardResult<K>>;
  /** Subscribes to pushed events; returns the unsubscribe function. */
  onEvent(handler: (event: DashboardEvent) => void): () => void;
}

/** A list of event handlers shared by both transports. */
export class EventListeners {
  private readonly handlers = new Set<(event: DashboardEvent) => void>();

  add(handler: (event: DashboardEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  emit(event: DashboardEvent): void {
    for (const h of this.handlers) {
      try {
        h(event);
      } catch (err) {
        console.error('dashboard event handler failed', err);
      }
    }
  }
}
