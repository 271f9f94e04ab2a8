import type { Statement } from 'better-sqlite3';
import type { Mode } from '../domain/modes.js';
import type { PricedItem, ShippingAddress } from '../domain/order.js';
import type { Db } from './db.js';

export interface Quote {
  id: string;
  mode: Mode;
  items: PricedItem[];
  shippingAddress: ShippingAddress;
  subtotal: number;
  shipping: number;
  total: number;
  createdAt: number;
  expiresAt: number;
}

type QuoteBody = Omit<Quote, 'id' | 'mode'>;

export class QuoteStore {
  readonly #insert: Statement<[string, string, string, string, number]>;
  readonly #byId: Statement<[string, string, string], { id: string; mode: string; body: string }>;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT INTO quotes (id, account_id, mode, body, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#byId = db.prepare(
      'SELECT id, mode, body FROM quotes WHERE account_id = ? AND mode = ? AND id = ?',
    );
  }

  insert(accountId: string, quote: Quote): void {
    const { id, mode, ...body } = quote;
    this.#insert.run(id, accountId, mode, JSON.stringify(body), quote.createdAt);
  }

  get(accountId: string, mode: Mode, id: string): Quote | undefined {
    const row = this.#byId.get(accountId, mode, id);
    if (!row) return undefined;
    return { id: row.id, mode: row.mode as Mode, ...(JSON.parse(row.body) as QuoteBody) };
  }
}
