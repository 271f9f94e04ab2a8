import type { Statement } from 'better-sqlite3';
import type { Mode } from '../domain/modes.js';
import type { Db } from './db.js';

/**
 * §4 Idempotency: what one Idempotency-Key placed. Contract §2: keys are scoped
 * to the account and mode, and records are kept at least 24 hours.
 */
export interface IdempotencyRecord {
  fingerprint: Buffer;
  order_id: string;
  created_at: number;
}

export class IdempotencyStore {
  readonly #select: Statement<[string, string, string], IdempotencyRecord>;
  readonly #insert: Statement<[string, string, string, Buffer, string, number]>;
  readonly #delete: Statement<[string, string, string]>;

  constructor(db: Db) {
    this.#select = db.prepare(
      `SELECT fingerprint, order_id, created_at FROM idempotency_records
       WHERE account_id = ? AND mode = ? AND idempotency_key = ?`,
    );
    this.#insert = db.prepare(
      `INSERT INTO idempotency_records (account_id, mode, idempotency_key, fingerprint, order_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#delete = db.prepare(
      'DELETE FROM idempotency_records WHERE account_id = ? AND mode = ? AND idempotency_key = ?',
    );
  }

  get(accountId: string, mode: Mode, key: string): IdempotencyRecord | undefined {
    return this.#select.get(accountId, mode, key);
  }

  insert(
    accountId: string,
    mode: Mode,
    key: string,
    fingerprint: Buffer,
    orderId: string,
    at: number,
  ): void {
    this.#insert.run(accountId, mode, key, fingerprint, orderId, at);
  }

  delete(accountId: string, mode: Mode, key: string): void {
    this.#delete.run(accountId, mode, key);
  }
}
