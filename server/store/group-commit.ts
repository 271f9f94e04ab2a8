import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import type { WriteLane } from './write-lane.js';

interface Pending {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: write work submitted during one turn of the event loop runs
 * in ONE SQLite transaction, each piece in its own savepoint (a piece that
 * throws rolls back alone), and every caller hears back only after the
 * COMMIT (with `synchronous = FULL`, after its fsync). So no answer is sent
 * for work that is not yet durable, while one WAL write and one fsync serve
 * many orders. Pieces run one after another, in submission order, holding
 * the write lane (write-lane.ts): two identical requests in one batch are
 * still serialized, the second sees the first's idempotency record and
 * replays it.
 */
export class GroupCommit {
  readonly #db: Db;
  readonly #lane: WriteLane;
  readonly #begin: Statement;
  readonly #commit: Statement;
  readonly #rollback: Statement;
  readonly #savepoint: Statement;
  readonly #release: Statement;
  readonly #rollbackToSavepoint: Statement;
  #queue: Pending[] = [];
  #scheduled = false;

  constructor(db: Db, lane: WriteLane) {
    this.#db = db;
    this.#lane = lane;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT piece');
    this.#release = db.prepare('RELEASE piece');
    this.#rollbackToSavepoint = db.prepare('ROLLBACK TO piece');
  }

  /** Runs `work` (may throw) inside the next batch; settles after the COMMIT. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          void this.#lane.exclusive(() => this.#flush());
        });
      }
    });
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    if (!this.#db.open) {
      for (const pending of batch) pending.reject(new Error('the database is closed'));
      return;
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.#begin.run();
      for (const pending of batch) {
        // Each piece in its own savepoint: a throw undoes this piece only.
        this.#savepoint.run();
        try {
          outcomes.push({ ok: true, value: await pending.work() });
        } catch (error) {
          this.#rollbackToSavepoint.run();
          outcomes.push({ ok: false, error });
        }
        this.#release.run();
      }
      this.#commit.run();
    } catch (error) {
      if (this.#db.open && this.#db.inTransaction) this.#rollback.run();
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) pending.resolve(outcome.value);
      else pending.reject(outcome?.error);
    });
  }
}
