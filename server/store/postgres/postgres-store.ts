import { DatabaseOpenError } from '../db.js';
import type { Faults, RateLimits, Store } from '../store.js';
import { pgAccounts, pgIdempotency, pgKeys, pgTokens } from './credentials.js';
import { PgDb, type PoolLimits, sql } from './pg-db.js';
import { pgEvents, pgFulfilment, pgOrders, pgQuotes, pgWebhookEndpoints } from './records.js';
import { migrate } from './schema.js';
import { pgFaults, pgHousekeeping, pgRateLimits } from './shared-state.js';

// One lock per account, whatever instance asks: the account id's 64-bit hash.
const LOCK_ACCOUNT = sql('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))');
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
    this.housekeeping = { run: (realNow: number) => pgHousekeeping(db, realNow) };
    this.groupCommit = { run: <T>(work: () => Promise<T>) => db.transaction(work) };
    this.rateLimits = pgRateLimits(db);
    this.faults = pgFaults(db);
  }

  /** Connects, applies the migrations not yet applied, and answers the store. */
  static async open(url: string, limits: PoolLimits): Promise<PostgresStore> {
    const db = new PgDb(url, limits);
    try {
      const client = await db.pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await db.close().catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      throw new DatabaseOpenError(`cannot open database ${redactUrl(url)}: ${message}`);
    }
    return new PostgresStore(db);
  }

  /** The connection pool, for the defect-only queries of server/defects/store/ (never the request path's). */
  get database(): PgDb {
    return this.#db;
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.#db.transaction(work);
  }

  async lockAccount(accountId: string): Promise<void> {
    if (this.#db.inTransaction) await this.#db.rows(LOCK_ACCOUNT, [accountId]);
  }

  async ping(): Promise<void> {
    await this.#db.alone(PING);
  }

  close(): Promise<void> {
    return this.#db.close();
  }
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
