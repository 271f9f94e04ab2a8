import type { Statement } from 'better-sqlite3';
import { IDEMPOTENCY_RETENTION_MS } from '../config/api.js';
import type { Db } from './db.js';

/**
 * Deletes what no request can use any more: idempotency records past their
 * 24-hour retention (contract §2), measured on each account's own clock
 * (offset = account clock − real time), and the tokens of revoked keys, which
 * answer `invalid_token` (§5.3) whether their row is there or not. An expired
 * token of a live key is kept, however old: §5.2 has it answer `token_expired`
 * for ever, and `invalid_token` after a purge would tell the client something
 * else. The token limit (§8, 20 a minute per key) bounds how many there are.
 */
export class Housekeeping {
  readonly #purgeRecords: Statement<[number]>;
  readonly #purgeTokens: Statement<[]>;

  constructor(db: Db) {
    this.#purgeRecords = db.prepare(
      `DELETE FROM idempotency_records WHERE created_at <
         (SELECT ? + clock_offset_ms FROM accounts WHERE accounts.id = idempotency_records.account_id)`,
    );
    this.#purgeTokens = db.prepare(
      `DELETE FROM access_tokens WHERE key_id IN (SELECT id FROM api_keys WHERE status = 'revoked')`,
    );
  }

  run(realNow: number): { records: number; tokens: number } {
    const records = this.#purgeRecords.run(realNow - IDEMPOTENCY_RETENTION_MS).changes;
    const tokens = this.#purgeTokens.run().changes;
    return { records, tokens };
  }
}
