import { AccountStore } from './accounts.js';
import { type Db, type Durability, openDatabase } from './db.js';
import { EventStore } from './events.js';
import { FulfilmentStore } from './fulfilment.js';
import { GroupCommit } from './group-commit.js';
import { Housekeeping } from './housekeeping.js';
import { IdempotencyStore } from './idempotency.js';
import { KeyStore } from './keys.js';
import { OrderStore } from './orders.js';
import { QuoteStore } from './quotes.js';
import { TokenStore } from './tokens.js';
import { WebhookEndpointStore } from './webhook-endpoints.js';
import { WideQueries } from './wide-queries.js';

/** Every repository over one database; statements are prepared once, here. */
export class Store {
  readonly db: Db;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  readonly tokens: TokenStore;
  readonly orders: OrderStore;
  readonly idempotency: IdempotencyStore;
  readonly events: EventStore;
  readonly quotes: QuoteStore;
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly fulfilment: FulfilmentStore;
  readonly housekeeping: Housekeeping;
  /** Lookups only test-only defects make (across accounts or modes, wrong counts). */
  readonly wide: WideQueries;
  /** Batches hot write paths (POST /orders) into shared transactions. */
  readonly groupCommit: GroupCommit;

  constructor(path: string, durability: Durability = 'durable') {
    this.db = openDatabase(path, durability);
    this.accounts = new AccountStore(this.db);
    this.tokens = new TokenStore(this.db);
    this.keys = new KeyStore(this.db, this.tokens);
    this.orders = new OrderStore(this.db);
    this.idempotency = new IdempotencyStore(this.db);
    this.events = new EventStore(this.db);
    this.quotes = new QuoteStore(this.db);
    this.webhookEndpoints = new WebhookEndpointStore(this.db);
    this.fulfilment = new FulfilmentStore(this.db);
    this.housekeeping = new Housekeeping(this.db);
    // A durable file database fsyncs each batch's WAL off the event loop (group-commit.ts).
    const file = path !== ':memory:' && path !== '';
    this.groupCommit = new GroupCommit(
      this.db,
      file && durability === 'durable' ? `${path}-wal` : undefined,
    );
    this.wide = new WideQueries(this.db);
  }

  /**
   * Runs `work` in one write transaction (BEGIN IMMEDIATE); a throw rolls
   * everything back. Inside a group commit it is a savepoint of the batch.
   */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
