/**
 * A ToolStore that forwards every call to a real one, with some methods in place of its own:
 * how the hybrid-memory bench and the vector-index tests count (or steer) what LanceDB's index
 * and its flat search answer. A store without `nearest` or `scan` (a build from before they
 * existed, measured by `hybridMemory.ts --child-src`) is forwarded without them.
 */
import type { ToolStore } from '../../server/src/adapters/store/toolStore';

export function forwardingStore(real: ToolStore, over: Partial<Pick<ToolStore, 'nearest' | 'scan'>> = {}): ToolStore {
  const store: ToolStore = {
    get readOnly() {
      return real.readOnly;
    },
    dir: real.dir,
    ...(real.annMinRows !== undefined && { annMinRows: real.annMinRows }),
    readAll: () => real.readAll(),
    readChanged: () => real.readChanged(),
    upsert: (rows) => real.upsert(rows),
    delete: (ids) => real.delete(ids),
    rebuild: (reason) => real.rebuild(reason),
    close: () => real.close(),
  };
  if (real.nearest) store.nearest = real.nearest.bind(real);
  if (real.scan) store.scan = real.scan.bind(real);
  return Object.assign(store, over);
}
