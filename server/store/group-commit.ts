import { open } from 'node:fs/promises';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { WriteLane } from './write-lane.js';

interface Pending {
  work: () => unknown;
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
 * the write lane (write-lane.ts; a piece may be async, as the store's calls
 * are): two identical requests in one batch are still serialized, the second
 * sees the first's idempotency record and replays it.
 *
 * With `walPath` (a durable file database) the batch's COMMIT itself does
 * not wait for the disk (`synchronous = NORMAL` for that commit only); the
 * WAL file is then fsynced on a worker thread and the batch's callers hear
 * back after that fsync. The answers wait for the disk exactly as before,
 * but the event loop does not: it reads, checks and batches the next
 * requests meanwhile (a blocking fsync took ~4 ms, once per batch, on the
 * development machine). A write that fails its fsync is refused (500).
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
  readonly #walPath: string | undefined;
  #queue: Pending[] = [];
  #scheduled = false;

  readonly #sync: (path: string) => Promise<void>;

  /**
   * `sync` fsyncs a file (tests pass their own to hold or fail it); `lane` is
   * the store's write lane (sqlite-store.ts), a lane of its own when alone.
   */
  constructor(
    db: Db,
    walPath?: string,
    sync: (path: string) => Promise<void> = fsyncFile,
    lane: WriteLane = new WriteLane(),
  ) {
    this.#db = db;
    this.#walPath = walPath;
    this.#sync = sync;
    this.#lane = lane;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT piece');
    this.#release = db.prepare('RELEASE piece');
    this.#rollbackToSavepoint = db.prepare('ROLLBACK TO piece');
  }

  /** Runs `work` (may throw, may be async) inside the next batch; settles once durable. */
  run<T>(work: () => T | Promise<T>): Promise<T> {
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
    const walPath = this.#walPath;
    // Set around the batch, never inside a transaction (SQLite refuses that). Not a prepared
    // statement: SQLite applies this pragma when it compiles it, not when it runs it.
    if (walPath !== undefined) this.#db.pragma('synchronous = NORMAL');
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
    } finally {
      if (walPath !== undefined && this.#db.open) this.#db.pragma('synchronous = FULL');
    }
    const settle = () =>
      batch.forEach((pending, index) => {
        const outcome = outcomes[index];
        if (outcome?.ok) pending.resolve(outcome.value);
        else pending.reject(outcome?.error);
      });
    if (walPath === undefined) settle();
    else
      this.#sync(walPath).then(settle, (error: unknown) => {
        for (const pending of batch) pending.reject(error);
      });
  }
}

/** fsync(2) of a file, on libuv's worker threads (Linux syncs the file, whichever descriptor). */
async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
