/**
 * Pushes `mcpLens/stateChanged` (and the notifications derived from the same state: approvals
 * needed, inputs needed, config problems) after Lens changes, debounced so a burst of upstream
 * events becomes one message. Derived notifications are sent only when their content changed.
 */
import type { StateChangedParams } from '../../../protocol/lspProtocol';
import type { DerivedNotification } from './stateSnapshot';

export interface BroadcastSink {
  state(params: StateChangedParams): void;
  /** Called with each derived notification whose payload differs from the last one sent. */
  derived(notification: DerivedNotification): void;
}

export interface BroadcastSource {
  state(): StateChangedParams;
  derived(): DerivedNotification[];
}

export class StateBroadcaster {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly lastDerived = new Map<string, string>();
  private disposed = false;

  constructor(
    private readonly source: BroadcastSource,
    private readonly sink: BroadcastSink,
    private readonly delayMs = 150,
  ) {}

  /** Schedules one push; calls within the delay coalesce. */
  schedule(): void {
    if (this.disposed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
  }

  /** Pushes now (used once right after initialization). */
  flush(): void {
    if (this.disposed) return;
    this.sink.state(this.source.state());
    for (const notification of this.source.derived()) {
      const { method } = notification.type;
      const json = JSON.stringify(notification.params);
      if (this.lastDerived.get(method) === json) continue;
      this.lastDerived.set(method, json);
      this.sink.derived(notification);
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
