import type { Fault, FaultWhen } from '../faults/registry.js';
import type { RateClass, RateDecision } from '../limits/rate-limiter.js';
import type { AccountStore } from './accounts.js';
import type { ChargeStore } from './charges.js';
import type { EventStore } from './events.js';
import type { FulfilmentStore } from './fulfilment.js';
import type { Housekeeping } from './housekeeping.js';
import type { IdempotencyStore } from './idempotency.js';
import type { KeyStore } from './keys.js';
import type { OrderStore } from './orders.js';
import type { QuoteStore } from './quotes.js';
import type { TokenStore } from './tokens.js';
import type { WebhookEndpointStore } from './webhook-endpoints.js';

/**
 * The same methods, answering through a promise. The SQLite repositories
 * (accounts.ts, orders.ts, …) are synchronous and define the methods; the
 * store interface is their asynchronous form, which the PostgreSQL engine
 * (store/postgres/) implements over the network.
 */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : T[K];
};

export type Accounts = Async<AccountStore>;
export type Keys = Async<KeyStore>;
export type Tokens = Async<TokenStore>;
export type Orders = Async<OrderStore>;
export type IdempotencyRecords = Async<IdempotencyStore>;
export type Events = Async<EventStore>;
export type Quotes = Async<QuoteStore>;
export type WebhookEndpoints = Async<WebhookEndpointStore>;
export type Fulfilment = Async<FulfilmentStore>;
export type Charges = Async<ChargeStore>;

/** §8 rate-limit windows (limits/rate-limiter.ts says how they count). */
export interface RateLimits {
  take(keyId: string, rateClass: RateClass, limit: number, now: number): Promise<RateDecision>;
  /** Forgets windows nobody touched for two minutes. */
  sweep(realNow: number): Promise<void>;
}

/** Contract §3 faults (faults/registry.ts says how they match). */
export interface Faults {
  add(accountId: string, fault: Fault): Promise<void>;
  /** Uses up one matching fault, if any; true when the request must fail. Never part of a transaction. */
  take(accountId: string, method: string, path: string, when: FaultWhen): Promise<boolean>;
}

/** Which engine a store runs on: SQLite (one process owns the file) or PostgreSQL (shared by instances). */
type Engine = 'sqlite' | 'postgres';

/**
 * Everything the server keeps, on one engine. A transaction's work is async:
 * every store call made while it runs (in its async context) is part of it.
 */
export interface Store {
  readonly engine: Engine;
  readonly accounts: Accounts;
  readonly keys: Keys;
  readonly tokens: Tokens;
  readonly orders: Orders;
  readonly idempotency: IdempotencyRecords;
  readonly events: Events;
  readonly quotes: Quotes;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly fulfilment: Fulfilment;
  /** §7: what was charged to accounts' cards (the control protocol shows it). */
  readonly charges: Charges;
  readonly housekeeping: Async<Housekeeping>;
  /** Batches hot write paths (POST /orders) into shared transactions; settles once durable. */
  readonly groupCommit: { run<T>(work: () => Promise<T>): Promise<T> };
  readonly rateLimits: RateLimits;
  readonly faults: Faults;
  /** Runs `work` in one write transaction; a throw rolls everything back. Nested: a savepoint. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits until no other transaction (of any instance
   * on the same database) holds this account's write lock, then holds it
   * until the end of the transaction. Decisions that read, then write what
   * they read (idempotency records, external_id, daily counts) take it first.
   */
  lockAccount(accountId: string): Promise<void>;
  /** Resolves when the database answers (readiness). */
  ping(): Promise<void>;
  /** Waits for work under way, then closes. */
  close(): Promise<void>;
}

/**
 * The database cannot be reached (refused, dropped, pool exhausted, shutting
 * down): the request is answered 503 `api_unavailable` (problems/to-problem.ts),
 * and nothing it did was acknowledged.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}
