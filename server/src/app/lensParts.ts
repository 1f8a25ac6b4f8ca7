/**
 * The parts behind a LensApp and how they feed each other, built in one place: config → upstream
 * pool (ServerReconciler) → catalog (CatalogComposer, from the pool's listings and the last known
 * catalog) → tool index (CatalogSync), read by the search (ToolSearch, with what search
 * learning kept), the one call path (ToolCalls, whose finished calls usage and search learning hear), prompts and resources (UpstreamForwarding) and the token counts per server. What
 * a part needs of the app as a whole — its settings, the slice of `Lens` it reads, where a change
 * is announced — comes in as a `LensHost`, so `LensApp` keeps only the delegation to these parts.
 */
import { join } from 'node:path';
import type { McpLensSettings } from '../../../protocol/settings';
import type { ToolIndex } from '../core/search/types';
import type { UpstreamPool } from '../adapters/upstream/pool';
import type { SearchLearning } from '../usage/searchLearning';
import type { UsageTracker } from '../usage/usageTracker';
import { CatalogComposer } from './catalogComposer';
import { CatalogSync } from './catalogSync';
import { FirstListings } from './firstListings';
import { KnownCatalog } from './knownCatalog';
import type { Lens, LensChange } from './lens';
import type { LensAppOptions } from './lensAppOptions';
import { ServerReconciler } from './serverReconciler';
import { ServerTokenCounts } from './serverTokens';
import { StartupQuiet } from './startupQuiet';
import { ToolCalls } from './toolCalls';
import { ToolConsent } from './toolConsent';
import { ConsentFile, consentFilePath } from '../adapters/consentFile';
import { ToolSearch } from './toolSearch';
import { UpstreamForwarding } from './upstreamForwarding';

/** What the parts read of the app that holds them. */
export interface LensHost {
  /** The app as the search and the call path read it. */
  lens: Lens;
  settings(): McpLensSettings;
  /** Settings read from the workspace's files while serving reach the app here. */
  updateSettings(settings: McpLensSettings): Promise<void>;
  /** Announces a change to the app's listeners. */
  fire(change: LensChange): void;
  /** True once the app is closing: the pool's last events are not acted on. */
  closed(): boolean;
}

/** The stores and the pool a LensApp opened for its parts. */
export interface LensResources {
  pool: UpstreamPool;
  index: ToolIndex;
  usage: UsageTracker;
  learning: SearchLearning;
  startedAt: number;
}

export interface LensParts {
  /** When work no one asked for may run: not while servers start. */
  quiet: StartupQuiet;
  known: KnownCatalog;
  composer: CatalogComposer;
  reconciler: ServerReconciler;
  sync: CatalogSync;
  tokens: ServerTokenCounts;
  finder: ToolSearch;
  calls: ToolCalls;
  consent: ToolConsent;
  forwarding: UpstreamForwarding;
  /** What a one-shot client's first answer waits for: servers still listing for the first time. */
  firstListings: FirstListings;
}

/** Builds the parts and subscribes them to the pool's, the index's, usage's and search learning's changes. */
export function buildLensParts(
  options: LensAppOptions,
  { pool, index, usage, learning, startedAt }: LensResources,
  host: LensHost,
): LensParts {
  const quiet = new StartupQuiet({
    starting: () => pool.starting(),
    onChange: (listener) => pool.onDidChange(listener),
    ...(options.startupQuietMaxMs !== undefined && { maxWaitMs: options.startupQuietMaxMs }),
  });
  const known = new KnownCatalog(join(options.storageDir, 'catalog.json'), options.log, quiet);
  const composer = new CatalogComposer(pool, known);
  const catalog = () => composer.catalog;
  const reconciler: ServerReconciler = new ServerReconciler({
    ...options,
    pool,
    known,
    settings: () => host.settings(),
    poolChanged: () => sync.rebuild(),
    serversChanged: () => host.fire('servers'),
    settingsRead: (settings) => host.updateSettings(settings),
  });
  const sync: CatalogSync = new CatalogSync({
    compose: () => composer.compose(reconciler.admitted),
    tools: () => composer.catalog.tools,
    index,
    log: options.log,
    changed: () => host.fire('tools'),
    ...(options.startAfter && { after: options.startAfter }),
    quiet,
  });
  // Search learning hears every finished call beside usage (searchLearning.ts: only an agent's teach).
  const record = (call: Parameters<UsageTracker['record']>[0]) => {
    usage.record(call);
    learning.noteCall(call);
  };
  const consent = buildConsent(options, composer, host);
  const startingWithoutTools = () => composer.startingWithoutTools(reconciler.admitted.running);
  const parts: LensParts = {
    quiet,
    known,
    composer,
    reconciler,
    sync,
    tokens: new ServerTokenCounts({ known, catalog, counted: () => host.fire('servers'), quiet }),
    finder: new ToolSearch({
      lens: host.lens,
      index,
      usage,
      learning,
      sync,
      catalog,
      startingWithoutTools,
      startedAt,
    }),
    calls: new ToolCalls({ lens: host.lens, catalog, pool, log: options.log, usage: { record }, consent }),
    consent,
    forwarding: new UpstreamForwarding({
      pool,
      catalog,
      isRunning: (name) => reconciler.isRunning(name),
      whenListed: (kind) => host.lens.whenListed(kind),
    }),
    firstListings: buildFirstListings(
      pool,
      startingWithoutTools,
      () => reconciler.admitted.running.some((s) => known.cachedAtStart(s)),
      host,
    ),
  };
  pool.onDidChange((change) => {
    if (host.closed()) return;
    sync.schedule();
    host.fire(change.kind === 'state' ? 'servers' : 'tools');
  });
  index.onDidChange(() => host.fire('index'));
  usage.onDidChange(() => host.fire('usage'));
  learning.onDidChange(() => host.fire('usage'));
  return parts;
}

/** The user's consent to destructive tools, remembered in the storage dir (toolConsent.ts). */
function buildConsent(options: LensAppOptions, composer: CatalogComposer, host: LensHost): ToolConsent {
  return new ToolConsent({
    file: new ConsentFile(consentFilePath(options.storageDir), (message) => options.log.warn(message)),
    settings: () => host.settings(),
    toolByKey: (key) => composer.catalog.byKey.get(key),
    log: options.log,
    changed: () => host.fire('consent'),
  });
}

/** What a one-shot client's first answer waits for (firstListings.ts). */
function buildFirstListings(
  pool: UpstreamPool,
  startingWithoutTools: () => string[],
  hadCatalogCache: () => boolean,
  host: LensHost,
): FirstListings {
  return new FirstListings({
    statuses: () => pool.statuses(),
    startingWithoutTools,
    hadCatalogCache,
    onChange: (listener) => pool.onDidChange(listener),
    connectTimeoutMs: () => host.settings().connectTimeoutSeconds * 1000,
  });
}
