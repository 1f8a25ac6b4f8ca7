/**
 * The requests `mcp-lens bench --scale` times: the datasets' own queries (real requests for
 * real tools, whose gold tools every org catalog holds), at most PER_DATASET of each so that
 * metatool's 21,029 do not drown the others, spread evenly over each set.
 */
import { allDatasetDirs } from './benchFiles';
import { loadDataset, type BenchQuery } from './dataset';

const PER_DATASET = 600;

export interface ScaleQuery extends BenchQuery {
  dataset: string;
}

export function scaleQueries(perDataset = PER_DATASET): ScaleQuery[] {
  return allDatasetDirs().flatMap((dir) => {
    const { name, queries } = loadDataset(dir);
    const step = Math.max(1, queries.length / perDataset);
    const picked: ScaleQuery[] = [];
    for (let i = 0; Math.floor(i) < queries.length && picked.length < perDataset; i += step)
      picked.push({ ...queries[Math.floor(i)]!, dataset: name });
    return picked;
  });
}
