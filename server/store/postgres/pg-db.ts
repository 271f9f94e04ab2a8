import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { databaseTimeLeft } from '../request-deadline.js';
import { StoreUnavailableError } from '../store.js';

/** A statement, prepared once per connection under its name. */
export interface Sql {
  readonly name: string;
  readonly text: string;
}

/** Names a statement by a digest of its text (pg prepares named statements once per connection). */
export function sql(text: string): Sql {
  return { name: `ref_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text };
}

/** Pool limits (docs/sandbox.md); every instance holds at most `max` connections. */
export interface PoolLimits {
  /** Connections per instance (default 10, or `DATABASE_POOL_MAX`). */
  max: number;
  /** How long a request waits for a free connection before 503 (ms). */
  connectionTimeoutMs: number;
  /**
   * How long one statement may run (ms) on the server; the client gives up a
   * second later (a database that stopped answering without closing the
   * connection, e.g. a network partition).
   */
  statementTimeoutMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = {
  max: 10,
  connectionTimeoutMs: 5_000,
  statementTimeoutMs: 10_000,
};

// int8 (counts, times in ms, money in cents) as numbers: all stay far below 2^53.
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

// One lock per account, whatever instance asks: the account id's 64-bit hash.
const LOCK_ACCOUNT = sql('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))');

/** Connection-level failures: the database is away, not our request wrong. */
export function unavailable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH'].includes(
        code,
      )
    )
      return true;
    // Class 08 connection exception; 57P0x shutdown; 53300 too many connections;
    // 57014 a statement past statement_timeout (an overloaded database: retry later).
    if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300' || code === '57014')
      return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  );
}

function mapError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (unavailable(error)) {
    return new StoreUnavailableError(
      `the database is unavailable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return error;
}

/**
 * The pool and the current transaction. A transaction's client is carried in
 * the async context of its work, so the repositories' statements run in it
 * without being handed a client (the store interface stays engine-neutral).
 *
 * Connection loss is an answer, never a crash (docs/sandbox.md): every
 * client, idle or checked out, has an `'error'` listener; a client that lost
 * its connection, or whose statement timed out, is destroyed instead of
 * returned to the pool, and the pool opens new ones when the database is
 * back. Every wait (a free connection, a statement, an account lock) is
 * bounded by the request's database deadline (store/request-deadline.ts).
 */
export class PgDb {
  readonly pool: pg.Pool;
  /**
   * For statements that must stay outside a request's transaction (faults,
   * rate-limit counts) while that transaction holds a connection of `pool`:
   * from a pool of their own, so transactions waiting for one can never hold
   * every connection they wait for (no deadlock when the main pool is full).
   */
  readonly #side: pg.Pool;
  readonly #tx = new AsyncLocalStorage<pg.PoolClient>();
  readonly #limits: PoolLimits;
  /** Clients whose connection reported an error: never reused. */
  readonly #lost = new WeakSet<pg.ClientBase>();
  /** Why requests are refused before the schema is there (the database was away at start); undefined: open. */
  #notReady: string | undefined;

  constructor(url: string, limits: PoolLimits) {
    this.#limits = limits;
    const config: pg.PoolConfig = {
      connectionString: url,
      connectionTimeoutMillis: limits.connectionTimeoutMs,
      idleTimeoutMillis: 30_000,
      statement_timeout: limits.statementTimeoutMs,
      query_timeout: limits.statementTimeoutMs + 1_000,
      // Notices a peer gone without a word (a dead host, a partition) on idle connections too.
      keepAlive: true,
      application_name: 'partner-ordering-reference',
      types,
    };
    this.pool = new pg.Pool({ ...config, max: limits.max });
    // Rate-limit counts and fault uses acknowledge nothing a partner relies on: their
    // commits need not wait for the WAL flush (a database crash may forget the last
    // few counts, never an order). Without this every request of one key waits, in
    // turn, for a flush while holding its window's row (about 1,500 req/s at most).
    this.#side = new pg.Pool({
      ...config,
      max: Math.max(2, Math.ceil(limits.max / 2)),
      options: '-c synchronous_commit=off',
    });
    for (const pool of [this.pool, this.#side]) {
      // An idle connection dropped by the server must not crash the process; the next query reconnects.
      pool.on('error', () => undefined);
      // The pool listens to its idle clients only: a client checked out for a transaction,
      // whose connection is terminated between two statements, would emit an unhandled
      // 'error' and end the process. Every client gets a listener of its own for its life.
      pool.on('connect', (client) => {
        client.on('error', () => {
          this.#lost.add(client);
        });
      });
    }
  }

  /** Refuses every statement (503) until `open()`: the database was away at start. */
  hold(reason: string): void {
    this.#notReady = reason;
  }

  open(): void {
    this.#notReady = undefined;
  }

  /** Whether statements are refused because the database has not answered since start. */
  get held(): boolean {
    return this.#notReady !== undefined;
  }

  /** Rows of `statement`, in the current transaction if there is one. */
  async rows<R>(statement: Sql, values: readonly unknown[] = []): Promise<R[]> {
    const tx = this.#tx.getStore();
    if (tx) return this.#query(tx, statement, values);
    return this.#once(this.pool, statement, values);
  }

  /** One statement on a connection of `pool`, checked out for it alone. */
  async #once<R>(pool: pg.Pool, statement: Sql, values: readonly unknown[]): Promise<R[]> {
    const client = await this.#connect(pool);
    let healthy = true;
    try {
      return await this.#query<R>(client, statement, values);
    } catch (error) {
      if (error instanceof StoreUnavailableError) healthy = false;
      throw error;
    } finally {
      client.release(!healthy || this.#lost.has(client));
    }
  }

  /**
   * How long the next wait may last: its own limit, or less when the request's
   * deadline is nearer. None left: the request is refused at once.
   */
  #bound(limitMs: number): number {
    const left = databaseTimeLeft();
    if (left === undefined) return limitMs;
    if (left <= 0) {
      throw new StoreUnavailableError('the database is unavailable: the request waited its bound');
    }
    return Math.min(limitMs, Math.ceil(left));
  }

  /** A client of `pool`, waiting at most the connection limit (and the request's deadline). */
  async #connect(pool: pg.Pool): Promise<pg.PoolClient> {
    if (this.#notReady !== undefined) {
      throw new StoreUnavailableError(`the database is unavailable: ${this.#notReady}`);
    }
    const waitMs = this.#bound(this.#limits.connectionTimeoutMs);
    const pending = pool.connect();
    if (waitMs >= this.#limits.connectionTimeoutMs) {
      // The pool's own connectionTimeoutMillis bounds this wait.
      try {
        return await pending;
      } catch (error) {
        throw mapError(error);
      }
    }
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    try {
      return await Promise.race([
        pending,
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => {
            late = true;
            reject(new StoreUnavailableError('the database is unavailable: no connection in time'));
          }, waitMs);
        }),
      ]);
    } catch (error) {
      // A connection that arrives after the request gave up goes back to the pool.
      if (late)
        pending.then(
          (client) => client.release(),
          () => undefined,
        );
      throw mapError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  async #query<R>(client: pg.PoolClient, statement: Sql, values: readonly unknown[]): Promise<R[]> {
    try {
      const result = await client.query<R & pg.QueryResultRow>({
        name: statement.name,
        text: statement.text,
        values: values as unknown[],
        query_timeout: this.#bound(this.#limits.statementTimeoutMs + 1_000),
      } as pg.QueryConfig);
      return result.rows;
    } catch (error) {
      throw mapError(error);
    }
  }

  async first<R>(statement: Sql, values: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.rows<R>(statement, values))[0];
  }

  /** Outside any transaction (faults and rate-limit counts must not roll back with a request's work). */
  async alone<R>(statement: Sql, values: readonly unknown[] = []): Promise<R[]> {
    return this.#once(this.#side, statement, values);
  }

  get inTransaction(): boolean {
    return this.#tx.getStore() !== undefined;
  }

  /** The account's lock (every instance's), held until the transaction ends; nothing outside one. */
  async lockAccount(accountId: string): Promise<void> {
    const client = this.#tx.getStore();
    if (client) await this.#query(client, LOCK_ACCOUNT, [accountId]);
  }

  /** Runs `work` in one transaction (READ COMMITTED); nested: a savepoint. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.#tx.getStore();
    if (outer) {
      await this.#exec(outer, 'SAVEPOINT nested');
      try {
        const value = await work();
        await this.#exec(outer, 'RELEASE SAVEPOINT nested');
        return value;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) {
          await this.#exec(outer, 'ROLLBACK TO SAVEPOINT nested');
        }
        throw error;
      }
    }
    const client = await this.#connect(this.pool);
    let healthy = true;
    try {
      await this.#exec(client, 'BEGIN');
      const value = await this.#tx.run(client, work);
      // COMMIT returns once the commit is flushed (synchronous_commit = on, PostgreSQL's default).
      await this.#commit(client);
      return value;
    } catch (error) {
      const mapped = mapError(error);
      if (mapped instanceof StoreUnavailableError || this.#lost.has(client)) {
        // No ROLLBACK on a connection that may be gone (it would wait again): closing it
        // rolls the transaction back on the server.
        healthy = false;
      } else {
        try {
          await client.query({ text: 'ROLLBACK', query_timeout: 2_000 } as pg.QueryConfig);
        } catch {
          healthy = false;
        }
      }
      throw mapped;
    } finally {
      client.release(!healthy || this.#lost.has(client));
    }
  }

  /**
   * COMMIT, and make sure it committed: on a transaction a failed statement
   * aborted, PostgreSQL answers COMMIT with ROLLBACK and no error.
   */
  async #commit(client: pg.PoolClient): Promise<void> {
    let result: pg.QueryResult;
    try {
      result = await client.query({
        text: 'COMMIT',
        query_timeout: this.#bound(this.#limits.statementTimeoutMs + 1_000),
      } as pg.QueryConfig);
    } catch (error) {
      throw mapError(error);
    }
    if (result.command !== 'COMMIT')
      throw new Error(`the transaction was not committed (${result.command})`);
  }

  async #exec(client: pg.PoolClient, text: string): Promise<void> {
    try {
      await client.query({
        text,
        query_timeout: this.#bound(this.#limits.statementTimeoutMs + 1_000),
      } as pg.QueryConfig);
    } catch (error) {
      throw mapError(error);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.#side.end()]);
  }
}
