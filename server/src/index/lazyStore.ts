/**
 * The hybrid index's vector store, opened on demand: the index asks for it only once its
 * embedder has answered, so a sidecar without Ollama never loads LanceDB (native code, tens
 * of MB). A store that cannot work in this process (StoreUnavailableError: LanceDB did not
 * load) or whose folder is unusable (read-only, full disk) turns vectors off for good: the
 * index searches keyword-only and `problem` says why, in words that complete "keyword only: …".
 */
import type { Logger } from '../core/logger';
import { errorMessage } from '../core/errorMessage';
import { StoreUnavailableError, type ToolStore } from '../adapters/store/toolStore';

export class LazyStore {
  private store: ToolStore | undefined;
  private opening: Promise<ToolStore | undefined> | undefined;
  private reason: string | undefined;
  private closed = false;

  constructor(
    private readonly openStore: () => Promise<ToolStore>,
    private readonly log: Logger,
  ) {}

  /** The store, once opened. */
  get current(): ToolStore | undefined {
    return this.store;
  }

  /** Why vectors are off for good, once known (e.g. `no LanceDB native module for darwin-x64`). */
  get problem(): string | undefined {
    return this.reason;
  }

  /** The opened store, or undefined when it cannot be used (see `problem`) or the index closed. */
  open(): Promise<ToolStore | undefined> {
    if (this.store || this.reason !== undefined || this.closed) return Promise.resolve(this.store);
    this.opening ??= this.openStore()
      .then(
        async (store) => {
          if (this.closed) {
            await store.close().catch(() => undefined);
            return undefined;
          }
          this.store = store;
          return store;
        },
        (err: unknown) => {
          this.disable(err);
          return undefined;
        },
      )
      .finally(() => {
        this.opening = undefined;
      });
    return this.opening;
  }

  /** True when `err` (from any store call) means the store cannot work here; it is then dropped. */
  failed(err: unknown): boolean {
    if (!(err instanceof StoreUnavailableError)) return false;
    this.disable(err);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.opening;
    const store = this.store;
    this.store = undefined;
    await store?.close();
  }

  private disable(err: unknown): void {
    if (this.reason !== undefined) return;
    if (err instanceof StoreUnavailableError) {
      this.reason = err.reason;
      this.log.warn(`tool index: ${err.reason} (${err.detail}); searching keyword-only`);
    } else {
      // A full disk or a read-only folder must not keep the sidecar from searching.
      this.reason = `tool store unusable (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)})`;
      this.log.error(`tool index: cannot open the tool store (${errorMessage(err)}); searching keyword-only`);
    }
    const store = this.store;
    this.store = undefined;
    store?.close().catch(() => undefined);
  }
}
