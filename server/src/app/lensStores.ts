/**
 * What a LensApp keeps on disk, opened together before anything else: the tool index (the one
 * the options hand over, or the one the settings ask for, indexFactory.ts), usage learning's
 * store and search learning's file (beside the usage log, in the same state folder).
 */
import { join } from 'node:path';
import type { ToolIndex } from '../core/search/types';
import { learnedFilePath } from '../adapters/usage/learnedFile';
import { CatalogTokensFile } from '../adapters/catalogTokensFile';
import { SearchLearning } from '../usage/searchLearning';
import { UsageTracker } from '../usage/usageTracker';
import { openToolIndex } from './indexFactory';
import type { LensAppOptions } from './lensAppOptions';

export interface LensStores {
  index: ToolIndex;
  usage: UsageTracker;
  learning: SearchLearning;
}

export async function openLensStores(options: LensAppOptions): Promise<LensStores> {
  const { settings, log } = options;
  const [index, usage] = await Promise.all([
    options.index ??
      openToolIndex(
        join(options.storageDir, 'index'),
        settings,
        log,
        new CatalogTokensFile(join(options.storageDir, 'catalog-tokens.json'), log),
      ),
    UsageTracker.open({
      dir: options.usageDir ?? join(options.storageDir, 'usage'),
      enabled: settings.usage.enabled,
      retentionDays: settings.usage.retentionDays,
      predictK: settings.predict.maxTools,
      log,
    }),
  ]);
  const learning = new SearchLearning({
    ...(options.sharedLessons ? { shared: options.sharedLessons } : { file: learnedFilePath(options.storageDir) }),
    enabled: settings.search.learnFromUsage,
    log,
  });
  return { index, usage, learning };
}
