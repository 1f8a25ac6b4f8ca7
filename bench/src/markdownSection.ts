/** Writes one bench's Markdown section into bench-results.md between its own markers. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Puts `section` into `file` between `<!-- NAME bench: start/end -->`, replacing an older one. */
export function writeSection(file: string, name: string, section: string): void {
  const start = `<!-- ${name} bench: start -->`;
  const end = `<!-- ${name} bench: end -->`;
  const block = `${start}\n${section}\n${end}`;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const i = old.indexOf(start);
  const j = old.indexOf(end);
  const next = i >= 0 && j > i ? old.slice(0, i) + block + old.slice(j + end.length) : `${old.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
