import { StoreUnavailableError } from '../store.js';
import type { PgDb } from './pg-db.js';

interface Pending {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Orders in one batch at most: a batch holds its accounts' locks until its COMMIT. */
const MAX_BATCH = 32;

/** An error of the database itself (SQLSTATE and severity), as opposed to a refusal of the work's own. */
function databaseError(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/**
 * Group commit on PostgreSQL, as store/group-commit.ts on SQLite: the orders
 * submitted during one turn of the event loop run in ONE transaction, each in
 * its own savepoint (a refusal rolls back that order alone), and every caller
 * hears back only after the COMMIT, so one COMMIT (one WAL flush) and one
 * BEGIN serve many orders, and an account's lock is taken once per batch
 * instead of once per order. Batches run side by side, on connections of
 * their own.
 *
 * A batch that fails as a whole (a database error inside it, say a deadlock
 * between two batches locking the same accounts in opposite orders) is rolled
 * back whole and each of its orders runs again in a transaction of its own,
 * so nobody is answered for work that was not committed and no order is lost
 * to another's failure. A lost database (StoreUnavailableError) refuses the
 * whole batch: 503, nothing acknowledged.
 */
export class PgGroupCommit {
  readonly #db: PgDb;
  #queue: Pending[] = [];
  #scheduled = false;

  constructor(db: PgDb) {
    this.#db = db;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      void this.#runBatch(batch);
    }
  }

  async #runBatch(batch: Pending[]): Promise<void> {
    const [only] = batch;
    if (batch.length === 1 && only) {
      await this.#db.transaction(only.work).then(only.resolve, only.reject);
      return;
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.#db.transaction(async () => {
        for (const pending of batch) {
          try {
            // Nested: a savepoint, released or rolled back alone.
            outcomes.push({ ok: true, value: await this.#db.transaction(pending.work) });
          } catch (error) {
            if (error instanceof StoreUnavailableError || databaseError(error)) throw error;
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      if (error instanceof StoreUnavailableError) {
        for (const pending of batch) pending.reject(error);
        return;
      }
      // Rolled back whole: each again, alone.
      await Promise.all(
        batch.map((pending) =>
          this.#db.transaction(pending.work).then(pending.resolve, pending.reject),
        ),
      );
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) pending.resolve(outcome.value);
      else pending.reject(outcome?.error);
    });
  }
}
