// Overwrites every file of a tool store's LanceDB folder with garbage (a damaged store).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function corruptFiles(storeDir: string): number {
  let count = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        writeFileSync(p, 'garbage, not a lance file\n'.repeat(7));
        count++;
      }
    }
  };
  walk(join(storeDir, 'lancedb'));
  return count;
}
