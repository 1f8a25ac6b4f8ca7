/**
 * What a LensApp keeps on disk, opened together before anything else: the tool index (the one
 * the options hand over, or the one the settings ask for, indexFactory.ts) and usage learning's
 * store.
 */
import { join } from 'node:path';
import type { ToolIndex } from '../core/search/types';
import { UsageTracker } from '../usage/usageTracker';
import { openToolIndex } from './indexFactory';
import type { LensAppOptions } from './lensAppOptions';

export async function openLensStores(options: LensAppOptions): Promise<{ index: ToolIndex; usage: UsageTracker }> {
  const { settings, log } = options;
  const [index, usage] = await Promise.all([
    options.index ?? openToolIndex(join(options.storageDir, 'index'), settings, log),
    UsageTracker.open({
      dir: options.usageDir ?? join(options.storageDir, 'usage'),
      enabled: settings.usage.enabled,
      retentionDays: settings.usage.retentionDays,
      predictK: settings.predict.maxTools,
      log,
    }),
  ]);
  return { index, usage };
}
