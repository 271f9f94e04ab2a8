import type { Statement } from 'better-sqlite3';
import { FaultRegistry } from '../faults/registry.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { AccountStore } from './accounts.js';
import { ChargeStore } from './charges.js';
import { type Db, type Durability, openDatabase } from './db.js';
import { EventStore } from './events.js';
import { FulfilmentStore } from './fulfilment.js';
import { GroupCommit } from './group-commit.js';
import { Housekeeping } from './housekeeping.js';
import { IdempotencyStore } from './idempotency.js';
import { KeyStore } from './keys.js';
import { OrderStore } from './orders.js';
import { QuoteStore } from './quotes.js';
import type { Async, Faults, RateLimits, Store } from './store.js';
import { TokenStore } from './tokens.js';
import { WebhookEndpointStore } from './webhook-endpoints.js';
import { WriteLane } from './write-lane.js';

/**
 * The store on SQLite (better-sqlite3): the synchronous repositories behind
 * the async store interface. Reads run at once; writes and transactions take
 * the write lane (write-lane.ts), so a transaction's statements are never
 * mixed with another request's. Rate-limit windows and faults stay in this
 * process: one process owns the file (db.ts), so they are still one truth.
 */
export class SqliteStore implements Store {
  readonly engine = 'sqlite';
  readonly db: Db;
  readonly accounts: Async<AccountStore>;
  readonly keys: Async<KeyStore>;
  readonly tokens: Async<TokenStore>;
  readonly orders: Async<OrderStore>;
  readonly idempotency: Async<IdempotencyStore>;
  readonly events: Async<EventStore>;
  readonly quotes: Async<QuoteStore>;
  readonly webhookEndpoints: Async<WebhookEndpointStore>;
  readonly fulfilment: Async<FulfilmentStore>;
  readonly charges: Async<ChargeStore>;
  readonly housekeeping: Async<Housekeeping>;
  readonly groupCommit: GroupCommit;
  readonly rateLimits: RateLimits;
  readonly faults: Faults;
  readonly #lane = new WriteLane();
  readonly #begin: Statement;
  readonly #commit: Statement;
  readonly #rollback: Statement;

  constructor(path: string, durability: Durability = 'durable') {
    this.db = openDatabase(path, durability);
    const lane = this.#lane;
    const tokens = new TokenStore(this.db);
    this.accounts = wrap(new AccountStore(this.db), lane, [
      'create',
      'updateSettings',
      'setClockOffset',
    ]);
    this.tokens = wrap(tokens, lane, ['issue', 'dropForKey']);
    this.keys = wrap(new KeyStore(this.db, tokens), lane, [
      'create',
      'roll',
      'revoke',
      'endProbation',
    ]);
    this.orders = wrap(new OrderStore(this.db), lane, ['insert', 'countForProbation', 'setStatus']);
    this.idempotency = wrap(new IdempotencyStore(this.db), lane, ['insert', 'delete']);
    this.events = wrap(new EventStore(this.db), lane, ['record']);
    this.quotes = wrap(new QuoteStore(this.db), lane, ['insert']);
    this.webhookEndpoints = wrap(new WebhookEndpointStore(this.db), lane, ['insert', 'delete']);
    this.fulfilment = wrap(new FulfilmentStore(this.db), lane, ['addShipment', 'addInvoice']);
    this.charges = wrap(new ChargeStore(this.db), lane, ['record']);
    this.housekeeping = wrap(new Housekeeping(this.db), lane, ['run']);
    // A durable file database fsyncs each batch's WAL off the event loop (group-commit.ts).
    const file = path !== ':memory:' && path !== '';
    this.groupCommit = new GroupCommit(
      this.db,
      file && durability === 'durable' ? `${path}-wal` : undefined,
      undefined,
      lane,
    );
    this.rateLimits = memoryRateLimits();
    this.faults = memoryFaults();
    this.#begin = this.db.prepare('BEGIN IMMEDIATE');
    this.#commit = this.db.prepare('COMMIT');
    this.#rollback = this.db.prepare('ROLLBACK');
  }

  /**
   * Runs `work` in one write transaction (BEGIN IMMEDIATE); a throw rolls
   * everything back. Inside a group commit or another transaction it is a savepoint.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.#lane.held) return this.#savepoint(work);
    return this.#lane.exclusive(async () => {
      this.#begin.run();
      try {
        const value = await work();
        this.#commit.run();
        return value;
      } catch (error) {
        if (this.db.open && this.db.inTransaction) this.#rollback.run();
        throw error;
      }
    });
  }

  async #savepoint<T>(work: () => Promise<T>): Promise<T> {
    this.db.exec('SAVEPOINT nested');
    try {
      const value = await work();
      this.db.exec('RELEASE nested');
      return value;
    } catch (error) {
      this.db.exec('ROLLBACK TO nested');
      this.db.exec('RELEASE nested');
      throw error;
    }
  }

  /** Writers are serialized by the write lane already. */
  lockAccount(): Promise<void> {
    return Promise.resolve();
  }

  ping(): Promise<void> {
    return this.db.open ? Promise.resolve() : Promise.reject(new Error('the database is closed'));
  }

  close(): Promise<void> {
    return this.#lane.exclusive(() => {
      if (this.db.open) this.db.close();
    });
  }
}

/** The async form of a synchronous repository: reads answer at once, `writes` take the lane. */
function wrap<T extends object>(repo: T, lane: WriteLane, writes: readonly (keyof T)[]): Async<T> {
  const out: Record<string, unknown> = {};
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(repo)).filter(
    (name) => name !== 'constructor',
  );
  for (const name of methods) {
    const method = (repo as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue;
    const call = (...args: unknown[]): unknown => method.apply(repo, args);
    out[name] = (writes as readonly string[]).includes(name)
      ? (...args: unknown[]) => lane.exclusive(() => call(...args))
      : (...args: unknown[]) => settled(() => call(...args));
  }
  return out as Async<T>;
}

/** The value of a synchronous read as a promise; a throw becomes a rejection (no executor closure per call). */
function settled(read: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(read());
  } catch (error) {
    return Promise.reject(error);
  }
}

function memoryRateLimits(): RateLimits {
  const limiter = new RateLimiter();
  return {
    take: (keyId, rateClass, limit, now) =>
      Promise.resolve(limiter.take(keyId, rateClass, limit, now)),
    sweep: (realNow) => Promise.resolve(limiter.sweep(realNow)),
  };
}

function memoryFaults(): Faults {
  const registry = new FaultRegistry();
  return {
    add: (accountId, fault) => Promise.resolve(registry.add(accountId, fault)),
    take: (accountId, method, path, when) =>
      Promise.resolve(registry.take(accountId, method, path, when)),
  };
}
