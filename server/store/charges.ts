import type { Statement } from 'better-sqlite3';
import type { Mode } from '../domain/modes.js';
import type { Db } from './db.js';

/**
 * One charge to an account's card (§7: what is charged, and "nothing charged"
 * after 402, 500 and 503): the amount taken for an order, in integer cents.
 * Card billing charges an order's total when it is placed, in the same
 * transaction that stores the order, so a refused or failed placement leaves
 * none. Invoice billing charges nothing when an order is placed (the invoice
 * stays open). Shown by the control protocol (`GET /accounts/{id}/charges`).
 */
export interface Charge {
  seq: number;
  id: string;
  accountId: string;
  mode: Mode;
  /** The order charged for; null for a charge that stored no order. */
  orderId: string | null;
  externalId: string;
  amount: number;
  createdAt: number;
}

/** A charge as both storage engines keep it. */
export interface ChargeRow {
  seq: number;
  id: string;
  account_id: string;
  mode: string;
  order_id: string | null;
  external_id: string;
  amount: number | string;
  created_at: number | string;
}

export function chargeFromRow(row: ChargeRow): Charge {
  return {
    seq: Number(row.seq),
    id: row.id,
    accountId: row.account_id,
    mode: row.mode as Mode,
    orderId: row.order_id,
    externalId: row.external_id,
    amount: Number(row.amount),
    createdAt: Number(row.created_at),
  };
}

export type NewCharge = Omit<Charge, 'seq'>;

export function chargeColumns(charge: NewCharge): unknown[] {
  return [
    charge.id,
    charge.accountId,
    charge.mode,
    charge.orderId,
    charge.externalId,
    charge.amount,
    charge.createdAt,
  ];
}

/** The charges of accounts, oldest first. Rows are never deleted. */
export class ChargeStore {
  readonly #insert: Statement<unknown[]>;
  readonly #ofAccount: Statement<[string], ChargeRow>;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO charges (id, account_id, mode, order_id, external_id, amount, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#ofAccount = db.prepare(
      `SELECT seq, id, account_id, mode, order_id, external_id, amount, created_at
       FROM charges WHERE account_id = ? ORDER BY seq`,
    );
  }

  /** Written in the transaction that stores the order charged for. */
  record(charge: NewCharge): void {
    this.#insert.run(...chargeColumns(charge));
  }

  /** Every charge of the account, both modes, oldest first. */
  ofAccount(accountId: string): Charge[] {
    return this.#ofAccount.all(accountId).map(chargeFromRow);
  }
}
