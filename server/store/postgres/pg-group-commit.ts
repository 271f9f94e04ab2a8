import { requestNote } from '../request-deadline.js';
import { StoreUnavailableError } from '../store.js';
import { LockBusyError, type PgDb } from './pg-db.js';

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
 * of one account (the one its bearer token names) submitted during one turn
 * of the event loop run in ONE transaction, each in
 * its own savepoint (a refusal rolls back that order alone), and every caller
 * hears back only after the COMMIT, so one COMMIT (one WAL flush) and one
 * BEGIN serve many orders, and an account's lock is taken once per batch
 * instead of once per order. Batches of different accounts run side by
 * side, on connections of their own.
 *
 * A batch waits for the lock of its first account only; an order whose
 * account's lock is held elsewhere (another batch, another instance) is
 * rolled back to its savepoint and goes first into the next batch (so that
 * batches never deadlock on each other's locks).
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
  /** Per account (as the request's bearer token named it): a batch holds one account's lock. */
  readonly #queues = new Map<string, Pending[]>();
  #scheduled = false;

  constructor(db: PgDb) {
    this.#db = db;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    const group = String(requestNote('account') ?? '');
    return new Promise<T>((resolve, reject) => {
      this.#enqueue(group, [{ work, resolve: resolve as (value: unknown) => void, reject }], false);
    });
  }

  #enqueue(group: string, pending: Pending[], first: boolean): void {
    let queue = this.#queues.get(group);
    if (!queue) {
      queue = [];
      this.#queues.set(group, queue);
    }
    if (first) queue.unshift(...pending);
    else queue.push(...pending);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  #flush(): void {
    this.#scheduled = false;
    const queues = [...this.#queues.entries()];
    this.#queues.clear();
    for (const [group, queue] of queues) {
      while (queue.length > 0) void this.#runBatch(group, queue.splice(0, MAX_BATCH));
    }
  }

  async #runBatch(group: string, batch: Pending[]): Promise<void> {
    const [only] = batch;
    if (batch.length === 1 && only) {
      await this.#db.transaction(only.work).then(only.resolve, only.reject);
      return;
    }
    const outcomes: Array<
      { ok: true; value: unknown } | { ok: false; error: unknown } | { ok: false; busy: true }
    > = [];
    try {
      await this.#db.transaction(async () => {
        for (const pending of batch) {
          try {
            // Nested: a savepoint, released or rolled back alone.
            outcomes.push({ ok: true, value: await this.#db.transaction(pending.work) });
          } catch (error) {
            if (error instanceof StoreUnavailableError || databaseError(error)) throw error;
            outcomes.push(
              error instanceof LockBusyError ? { ok: false, busy: true } : { ok: false, error },
            );
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
    const later: Pending[] = [];
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) pending.reject(new Error('group commit: no outcome'));
      else if (outcome.ok) pending.resolve(outcome.value);
      else if ('busy' in outcome) later.push(pending);
      else pending.reject(outcome.error);
    });
    // Orders whose account another transaction held: first in the next batch, which waits for it.
    if (later.length > 0) this.#enqueue(group, later, true);
  }
}
