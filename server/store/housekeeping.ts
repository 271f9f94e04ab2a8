import type { Statement } from 'better-sqlite3';
import { DAY_MS, IDEMPOTENCY_RETENTION_MS } from '../config/api.js';
import type { Db } from './db.js';

/** Tokens are kept a week past issue so that an old token still answers `token_expired`. */
const TOKEN_KEEP_MS = 7 * DAY_MS;

/**
 * Deletes what no request can use any more: idempotency records past their
 * 24-hour retention (contract §2) and long-expired tokens, each measured on
 * its own account's clock (offset = account clock − real time).
 */
export class Housekeeping {
  readonly #purgeRecords: Statement<[number]>;
  readonly #purgeTokens: Statement<[number]>;

  constructor(db: Db) {
    this.#purgeRecords = db.prepare(
      `DELETE FROM idempotency_records WHERE created_at <
         (SELECT ? + clock_offset_ms FROM accounts WHERE accounts.id = idempotency_records.account_id)`,
    );
    this.#purgeTokens = db.prepare(
      `DELETE FROM access_tokens WHERE issued_at <
         (SELECT ? + a.clock_offset_ms FROM api_keys k JOIN accounts a ON a.id = k.account_id
          WHERE k.id = access_tokens.key_id)`,
    );
  }

  run(realNow: number): { records: number; tokens: number } {
    const records = this.#purgeRecords.run(realNow - IDEMPOTENCY_RETENTION_MS).changes;
    const tokens = this.#purgeTokens.run(realNow - TOKEN_KEEP_MS).changes;
    return { records, tokens };
  }
}
