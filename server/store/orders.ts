import type { Statement } from 'better-sqlite3';
import type { Mode } from '../domain/modes.js';
import type { Order, OrderStatus, PricedItem, ShippingAddress } from '../domain/order.js';
import { utcDay } from '../domain/time.js';
import type { Db } from './db.js';

/** An order as both storage engines keep it (store/postgres reads the same columns). */
export interface OrderRow {
  seq: number;
  id: string;
  account_id: string;
  mode: string;
  key_id: string;
  external_id: string;
  status: string;
  items: string;
  total: number;
  shipping_address: string;
  created_at: number;
  day?: string;
  cancellable_until: number;
  updated_at: number;
}

export function orderFromRow(row: OrderRow): Order {
  return {
    seq: row.seq,
    id: row.id,
    accountId: row.account_id,
    mode: row.mode as Mode,
    keyId: row.key_id,
    externalId: row.external_id,
    status: row.status as OrderStatus,
    items: JSON.parse(row.items) as PricedItem[],
    total: row.total,
    shippingAddress: JSON.parse(row.shipping_address) as ShippingAddress,
    createdAt: row.created_at,
    cancellableUntil: row.cancellable_until,
    updatedAt: row.updated_at,
  };
}

/** An order's column values in the insert's order, as both storage engines write them. */
export function orderColumns(order: Omit<Order, 'seq'>, day: string): unknown[] {
  return [
    order.id,
    order.accountId,
    order.mode,
    order.keyId,
    order.externalId,
    order.status,
    JSON.stringify(order.items),
    order.total,
    JSON.stringify(order.shippingAddress),
    order.createdAt,
    day,
    order.cancellableUntil,
    order.updatedAt,
  ];
}

type Scope = [accountId: string, mode: string];

export class OrderStore {
  readonly #insert: Statement<unknown[]>;
  readonly #byId: Statement<[...Scope, string], OrderRow>;
  readonly #byIdAnyMode: Statement<[string, string], OrderRow>;
  readonly #byExternalId: Statement<[...Scope, string], OrderRow>;
  readonly #page: Statement<[...Scope, number, number], OrderRow>;
  readonly #countDay: Statement<[...Scope, string], { orders: number }>;
  readonly #bumpDay: Statement<[...Scope, string]>;
  readonly #probationUsage: Statement<[string], { orders: number; total: number }>;
  readonly #bumpProbation: Statement<[string, number, number]>;
  readonly #setStatus: Statement<[string, number, string]>;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO orders (id, account_id, mode, key_id, external_id, status, items, total,
         shipping_address, created_at, day, cancellable_until, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#byId = db.prepare('SELECT * FROM orders WHERE account_id = ? AND mode = ? AND id = ?');
    this.#byIdAnyMode = db.prepare('SELECT * FROM orders WHERE account_id = ? AND id = ?');
    this.#byExternalId = db.prepare(
      'SELECT * FROM orders WHERE account_id = ? AND mode = ? AND external_id = ?',
    );
    this.#page = db.prepare(
      `SELECT * FROM orders WHERE account_id = ? AND mode = ? AND seq < ?
       ORDER BY seq DESC LIMIT ?`,
    );
    this.#countDay = db.prepare(
      'SELECT orders FROM daily_order_counts WHERE account_id = ? AND mode = ? AND day = ?',
    );
    this.#bumpDay = db.prepare(
      `INSERT INTO daily_order_counts (account_id, mode, day, orders) VALUES (?, ?, ?, 1)
       ON CONFLICT (account_id, mode, day) DO UPDATE SET orders = orders + 1`,
    );
    this.#probationUsage = db.prepare('SELECT orders, total FROM probation_usage WHERE key_id = ?');
    this.#bumpProbation = db.prepare(
      `INSERT INTO probation_usage (key_id, orders, total) VALUES (?, 1, ?)
       ON CONFLICT (key_id) DO UPDATE SET orders = orders + 1, total = total + ?`,
    );
    this.#setStatus = db.prepare('UPDATE orders SET status = ?, updated_at = ? WHERE id = ?');
  }

  /** Stores a new order and counts it for its day (call inside a transaction). */
  insert(order: Omit<Order, 'seq'>): Order {
    const day = utcDay(order.createdAt);
    this.#bumpDay.run(order.accountId, order.mode, day);
    const info = this.#insert.run(...orderColumns(order, day));
    return { ...order, seq: Number(info.lastInsertRowid) };
  }

  get(accountId: string, mode: Mode, id: string): Order | undefined {
    const row = this.#byId.get(accountId, mode, id);
    return row && orderFromRow(row);
  }

  /** For the control protocol, which acts on an account's orders in either mode. */
  getInAnyMode(accountId: string, id: string): Order | undefined {
    const row = this.#byIdAnyMode.get(accountId, id);
    return row && orderFromRow(row);
  }

  getByExternalId(accountId: string, mode: Mode, externalId: string): Order | undefined {
    const row = this.#byExternalId.get(accountId, mode, externalId);
    return row && orderFromRow(row);
  }

  /** Newest first, strictly before `beforeSeq`; one extra row tells `has_more`. */
  page(accountId: string, mode: Mode, beforeSeq: number, limit: number): Order[] {
    return this.#page.all(accountId, mode, beforeSeq, limit).map(orderFromRow);
  }

  /** §4 rule 5, contract §2: orders of one mode on one UTC day of the account clock, cancelled included. */
  countOnDay(accountId: string, mode: Mode, day: string): number {
    return this.#countDay.get(accountId, mode, day)?.orders ?? 0;
  }

  /** §3 probation: orders (cancelled included) and their total placed by a key while on probation. */
  probationUsage(keyId: string): { count: number; total: number } {
    const row = this.#probationUsage.get(keyId);
    return { count: row?.orders ?? 0, total: row?.total ?? 0 };
  }

  /** Counts an order placed by a key on probation (call in the order's transaction). */
  countForProbation(keyId: string, total: number): void {
    this.#bumpProbation.run(keyId, total, total);
  }

  setStatus(order: Order, status: OrderStatus, at: number): Order {
    this.#setStatus.run(status, at, order.id);
    return { ...order, status, updatedAt: at };
  }
}
