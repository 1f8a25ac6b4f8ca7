/**
 * Search learning shared between replicas: the lessons (core/usage/learnedExamples.ts `Lesson`:
 * these words → this tool, by this much) each replica's sessions teach are appended to the
 * state database, and every replica applies the others' as they are notified. Lessons, not the
 * examples they add up to, are what is shared: two replicas teaching at once both count, where
 * rewriting a shared set would keep only the last writer's. A replica starting replays the
 * workspace's kept lessons; the oldest beyond KEPT_LESSONS are deleted. A lesson the database
 * cannot take stays in this replica's memory and the log says so once per outage: learning is
 * a ranking signal, not a record.
 */
import { resolve } from 'node:path';
import { errorMessage } from '../../core/errorMessage';
import type { Logger } from '../../core/logger';
import type { Lesson } from '../../core/usage/learnedExamples';
import type { StateDatabase } from './stateDatabase';

/** Lessons kept per workspace (several per example the learned set keeps at most). */
export const KEPT_LESSONS = 20_000;
const PRUNE_EVERY = 1000;
/** Ids below the highest seen that are read again, for inserts that committed out of order. */
const LATE_WINDOW = 512;

export interface TaughtLesson {
  lesson: Lesson;
  at: number;
}

export type OthersTaught = { lessons: TaughtLesson[] } | { forget: true };

/** What SearchLearning needs of shared lessons (usage/searchLearning.ts). */
export interface SharedLessons {
  /** Every kept lesson, oldest first, as read at open. */
  initial(): readonly TaughtLesson[];
  /** Records lessons this replica taught (in the background). */
  append(lessons: readonly Lesson[], at: number): void;
  /** Deletes every lesson of the workspace, here and for every replica. */
  forget(): void;
  /** Lessons other replicas taught, and forgets anyone asked for. */
  onOthers(listener: (taught: OthersTaught) => void): { dispose(): void };
  /** Resolves once what was appended so far is committed or failed. */
  settled(): Promise<void>;
  close(): void;
}

interface LessonRow {
  id: string;
  terms: string[];
  words: string[];
  teacher: string;
  tool_key: string;
  server: string;
  fingerprint: string;
  delta: number;
  taught_at: string;
  replica: string;
}

export class PgLessons implements SharedLessons {
  private readonly workspace: string;
  private kept: TaughtLesson[] = [];
  private highest = 0;
  private readonly seen = new Set<number>();
  private readonly listeners = new Set<(taught: OthersTaught) => void>();
  private pending: Promise<void> = Promise.resolve();
  private appended = 0;
  private failing = false;
  /** Reads of new lessons, one at a time: two at once would hand the same rows over twice. */
  private reading: Promise<void> = Promise.resolve();
  private readonly subscription: { dispose(): void };

  private constructor(
    private readonly db: StateDatabase,
    workspaceFolder: string,
    private readonly log: Logger,
  ) {
    this.workspace = resolve(workspaceFolder);
    this.subscription = db.onChange((change) => {
      if (change.workspace !== this.workspace && change.kind !== 'reconnected') return;
      if (change.kind === 'forget' && change.replica !== db.replica) this.tell({ forget: true });
      if (change.kind === 'lessons' || change.kind === 'reconnected')
        this.reading = this.reading.then(() => this.readNew());
    });
  }

  static async open(db: StateDatabase, workspaceFolder: string, log: Logger): Promise<PgLessons> {
    const store = new PgLessons(db, workspaceFolder, log);
    store.kept = (await store.rowsAfter(0)).map(taught);
    return store;
  }

  initial(): readonly TaughtLesson[] {
    return this.kept;
  }

  append(lessons: readonly Lesson[], at: number): void {
    if (lessons.length === 0) return;
    this.pending = this.pending.then(() => this.insert(lessons, at));
  }

  forget(): void {
    this.pending = this.pending.then(async () => {
      try {
        await this.db.query('forgetting learned search', 'DELETE FROM mcp_lens_lessons WHERE workspace = $1', [
          this.workspace,
        ]);
        await this.db.notify({ kind: 'forget', workspace: this.workspace });
      } catch (err) {
        this.log.warn(errorMessage(err));
      }
    });
  }

  onOthers(listener: (taught: OthersTaught) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  settled(): Promise<void> {
    return this.pending;
  }

  close(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }

  private async insert(lessons: readonly Lesson[], at: number): Promise<void> {
    const values: unknown[] = [];
    const rows = lessons.map((l) => {
      values.push(this.workspace, [...l.terms], [...l.words], l.by);
      values.push(l.key, l.server, l.fingerprint, l.delta, at, this.db.replica);
      const n = values.length;
      return `(${Array.from({ length: 10 }, (_, i) => `$${n - 9 + i}`).join(', ')})`;
    });
    try {
      await this.db.query(
        'sharing what search learned',
        `INSERT INTO mcp_lens_lessons (workspace, terms, words, teacher, tool_key, server, fingerprint, delta, taught_at, replica)
         VALUES ${rows.join(', ')}`,
        values,
      );
      await this.db.notify({ kind: 'lessons', workspace: this.workspace });
      if (this.failing) this.log.info(`state database ${this.db.name}: sharing what search learned again`);
      this.failing = false;
      this.appended += lessons.length;
      if (this.appended >= PRUNE_EVERY) await this.prune();
    } catch (err) {
      if (!this.failing)
        this.log.warn(`${errorMessage(err)}; what search learns stays in this replica's memory until it answers`);
      this.failing = true;
    }
  }

  private async prune(): Promise<void> {
    this.appended = 0;
    await this.db.query(
      'pruning old search lessons',
      `DELETE FROM mcp_lens_lessons WHERE workspace = $1 AND id < (
         SELECT id FROM mcp_lens_lessons WHERE workspace = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
      [this.workspace, KEPT_LESSONS],
    );
  }

  /** Reads lessons committed since the last read and hands other replicas' to the listeners. */
  private async readNew(): Promise<void> {
    let rows: LessonRow[];
    try {
      rows = await this.rowsAfter(Math.max(0, this.highest - LATE_WINDOW));
    } catch (err) {
      this.log.warn(errorMessage(err));
      return;
    }
    const others = rows.filter((r) => r.replica !== this.db.replica).map(taught);
    if (others.length > 0) this.tell({ lessons: others });
  }

  /** Rows after `id` not read before (the ones read are remembered, bounded by the window). */
  private async rowsAfter(id: number): Promise<LessonRow[]> {
    const rows = await this.db.query<LessonRow>(
      'reading what search learned',
      'SELECT * FROM mcp_lens_lessons WHERE workspace = $1 AND id > $2 ORDER BY id',
      [this.workspace, id],
    );
    const fresh = rows.filter((r) => !this.seen.has(Number(r.id)));
    for (const r of fresh) {
      this.seen.add(Number(r.id));
      this.highest = Math.max(this.highest, Number(r.id));
    }
    for (const s of this.seen) if (s <= this.highest - LATE_WINDOW) this.seen.delete(s);
    return fresh;
  }

  private tell(taught: OthersTaught): void {
    for (const l of this.listeners) l(taught);
  }
}

function taught(r: LessonRow): TaughtLesson {
  return {
    lesson: {
      terms: r.terms,
      words: r.words,
      by: r.teacher,
      key: r.tool_key,
      server: r.server,
      fingerprint: r.fingerprint,
      delta: r.delta,
    },
    at: Number(r.taught_at),
  };
}
