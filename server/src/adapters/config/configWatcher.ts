/**
 * Watches the config files MCP Lens reads, whether they exist yet or not, and says when one of
 * them was created, changed or deleted. It watches each file's folder (editors save by writing
 * a temp file and renaming it over the old one, which a watch on the file itself would lose),
 * or, for a folder that does not exist yet (no `.vscode/`), the nearest existing parent until
 * it appears. Events are coalesced, and a change is only reported when a file's metadata
 * (inode, size, mtime) really differs, so a burst of saves is one reload. Files are never
 * opened here, so a FIFO or a symlink in a hostile repository cannot block or redirect it.
 * When the OS runs out of watches, it polls instead.
 */
import { lstatSync, statSync, watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../core/logger';
import { ChangeEmitter } from '../../core/changeEmitter';
import { errorMessage } from '../../core/errorMessage';

/** How long events settle before the files are compared (editors write in several steps). */
const SETTLE_MS = 60;
/** Polling interval when fs.watch is not available. */
const POLL_MS = 1000;

export class ConfigWatcher {
  private files = new Set<string>();
  private signatures = new Map<string, string>();
  /** Watched folder → its watcher (or the file polled for it). */
  private readonly watchers = new Map<string, { close(): void }>();
  private readonly changes = new ChangeEmitter<string[]>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly log: Logger) {}

  /** Fires with the files that changed since the last report. */
  onDidChange(listener: (files: string[]) => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Watches exactly these files from now on (absolute paths); their current state is the baseline. */
  setFiles(files: readonly string[]): void {
    if (this.closed) return;
    const next = new Set(files.map((f) => path.resolve(f)));
    for (const f of next) if (!this.files.has(f)) this.signatures.set(f, signature(f));
    for (const f of this.files) if (!next.has(f)) this.signatures.delete(f);
    this.files = next;
    this.rearm();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.changes.clear();
  }

  /** Watches the folder of every file, or its nearest existing ancestor. */
  private rearm(): void {
    const wanted = new Set([...this.files].map((f) => nearestExisting(path.dirname(f))));
    for (const [dir, w] of this.watchers) {
      if (wanted.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
    }
    for (const dir of wanted) if (!this.watchers.has(dir)) this.watchers.set(dir, this.watchDir(dir));
  }

  private watchDir(dir: string): { close(): void } {
    try {
      const w: FSWatcher = watch(dir, { persistent: false }, () => this.schedule());
      w.on('error', (err) => {
        // The folder went away (or the watch broke): look again for what to watch.
        this.log.debug(`config watcher: ${dir}: ${errorMessage(err)}`);
        w.close();
        this.watchers.delete(dir);
        this.schedule();
      });
      return w;
    } catch (err) {
      this.log.debug(`config watcher: cannot watch ${dir} (${errorMessage(err)}); polling instead`);
      const polled = [...this.files].filter((f) => nearestExisting(path.dirname(f)) === dir);
      for (const f of polled) watchFile(f, { persistent: false, interval: POLL_MS }, () => this.schedule());
      return { close: () => polled.forEach((f) => unwatchFile(f)) };
    }
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), SETTLE_MS);
    this.timer.unref();
  }

  private check(): void {
    if (this.closed) return;
    const changed: string[] = [];
    for (const f of this.files) {
      const now = signature(f);
      if (this.signatures.get(f) === now) continue;
      this.signatures.set(f, now);
      changed.push(f);
    }
    // A folder may have appeared (`.vscode/` created) or vanished: watch the right ones.
    this.rearm();
    if (changed.length) this.changes.fire(changed);
  }
}

/** What tells one version of a file from another without opening it. */
function signature(file: string): string {
  try {
    const s = lstatSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}`;
  } catch {
    return 'missing';
  }
}

function nearestExisting(dir: string): string {
  let d = dir;
  for (;;) {
    try {
      if (statSync(d).isDirectory()) return d;
    } catch {
      // does not exist (yet)
    }
    const up = path.dirname(d);
    if (up === d) return d;
    d = up;
  }
}
