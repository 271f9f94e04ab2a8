import type pg from 'pg';
import { DatabaseOpenError } from '../db.js';
import type { Faults, RateLimits, Store } from '../store.js';
import { pgAccounts, pgIdempotency, pgKeys, pgTokens } from './credentials.js';
import { PgDb, type PoolLimits, sql, unavailable } from './pg-db.js';
import {
  pgCharges,
  pgEvents,
  pgFulfilment,
  pgOrders,
  pgQuotes,
  pgWebhookEndpoints,
} from './records.js';
import { migrate } from './schema.js';
import { pgFaults, pgHousekeeping, pgRateLimits } from './shared-state.js';

const PING = sql('SELECT 1');

/**
 * The store on PostgreSQL, shared by every instance: each request reads what
 * is committed (no cache), each write is its own transaction or part of the
 * request's, and what one SQLite process kept in memory (rate-limit windows,
 * faults) is in tables. Durability is PostgreSQL's: COMMIT returns once the
 * WAL is flushed (`synchronous_commit = on`), and concurrent commits share a
 * flush, so the group commit is PostgreSQL's own.
 */
export class PostgresStore implements Store {
  readonly engine = 'postgres';
  readonly #db: PgDb;
  readonly accounts;
  readonly keys;
  readonly tokens;
  readonly orders;
  readonly idempotency;
  readonly events;
  readonly quotes;
  readonly webhookEndpoints;
  readonly fulfilment;
  readonly charges;
  readonly housekeeping;
  readonly groupCommit;
  readonly rateLimits: RateLimits;
  readonly faults: Faults;

  private constructor(db: PgDb) {
    this.#db = db;
    this.accounts = pgAccounts(db);
    this.tokens = pgTokens(db);
    this.keys = pgKeys(db, this.tokens);
    this.orders = pgOrders(db);
    this.idempotency = pgIdempotency(db);
    this.events = pgEvents(db);
    this.quotes = pgQuotes(db);
    this.webhookEndpoints = pgWebhookEndpoints(db);
    this.fulfilment = pgFulfilment(db);
    this.charges = pgCharges(db);
    this.housekeeping = { run: (realNow: number) => pgHousekeeping(db, realNow) };
    this.groupCommit = { run: <T>(work: () => Promise<T>) => db.transaction(work) };
    this.rateLimits = pgRateLimits(db);
    this.faults = pgFaults(db);
  }

  /**
   * Connects, applies the migrations not yet applied, and answers the store.
   * A database that cannot be reached (refused, timed out, shutting down) is
   * waited for up to `startup.waitMs`: the store is answered at once and
   * refuses every statement (503, `/readyz` 503) until the schema is there,
   * retrying every `startup.retryMs`; past the bound, `startup.onGiveUp` is
   * called (the CLI exits 1 then). Without a wait, such a database throws.
   */
  static async open(
    url: string,
    limits: PoolLimits,
    startup: StartupWait = {},
  ): Promise<PostgresStore> {
    const db = new PgDb(url, limits);
    const first = await prepare(db);
    if (first === undefined) return new PostgresStore(db);
    const waitMs = startup.waitMs ?? 0;
    if (waitMs <= 0 || !unavailable(first)) {
      await db.close().catch(() => undefined);
      throw openError(url, first);
    }
    db.hold('it has not answered since this instance started');
    const store = new PostgresStore(db);
    store.#waitForDatabase(url, Date.now() + waitMs, startup);
    return store;
  }

  #waitTimer: NodeJS.Timeout | undefined;
  #closed = false;

  #waitForDatabase(url: string, giveUpAt: number, startup: StartupWait): void {
    const retry = async () => {
      const error = await prepare(this.#db);
      if (this.#closed) return;
      if (error === undefined) {
        this.#db.open();
        startup.onReady?.();
        return;
      }
      if (Date.now() >= giveUpAt || !unavailable(error)) {
        this.#db.hold(`it did not answer within the start-up wait: ${message(error)}`);
        startup.onGiveUp?.(openError(url, error));
        return;
      }
      this.#waitTimer = setTimeout(retry, startup.retryMs ?? 1_000);
    };
    this.#waitTimer = setTimeout(retry, startup.retryMs ?? 1_000);
  }

  /** The connection pool, for the defect-only queries of server/defects/store/ (never the request path's). */
  get database(): PgDb {
    return this.#db;
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.#db.transaction(work);
  }

  async lockAccount(accountId: string): Promise<void> {
    await this.#db.lockAccount(accountId);
  }

  async ping(): Promise<void> {
    await this.#db.alone(PING);
  }

  close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#waitTimer);
    return this.#db.close();
  }
}

/** How long an instance waits for a database it cannot reach at start (docs/sandbox.md). */
export interface StartupWait {
  /** Default 0: no wait, an unreachable database throws DatabaseOpenError. */
  waitMs?: number;
  /** Between two attempts; default 1 s. */
  retryMs?: number;
  /** The database answered and the schema is migrated: the store serves from now on. */
  onReady?: () => void;
  /** The wait is over and the database never answered. */
  onGiveUp?: (error: DatabaseOpenError) => void;
}

/** Connects and migrates; answers the error, or undefined once done. */
async function prepare(db: PgDb): Promise<unknown> {
  let client: pg.PoolClient;
  try {
    client = await db.pool.connect();
  } catch (error) {
    return error;
  }
  let failed: unknown;
  try {
    await migrate(client);
  } catch (error) {
    failed = error;
  }
  // A connection whose migration failed may be in any state: never reused.
  client.release(failed !== undefined);
  return failed;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function openError(url: string, error: unknown): DatabaseOpenError {
  return new DatabaseOpenError(`cannot open database ${redactUrl(url)}: ${message(error)}`);
}

/** A database URL as it may be shown: without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://[unreadable URL]';
  }
}
