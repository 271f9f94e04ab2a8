import type { Mode } from '../../domain/modes.js';
import type { Db } from '../../store/db.js';
import type { IdempotencyRecord } from '../../store/idempotency.js';
import type { TokenRow } from '../../store/tokens.js';

/**
 * The wrong questions some test-only defects ask the database (lookups across
 * accounts or modes, counts that leave out or add in what the rules say), on
 * SQLite; postgres-wide.ts asks them of PostgreSQL. A defect-only extension of
 * the store (wide.ts): the `Store` interface never offers them. Prepared per
 * call: only a defective server asks them.
 */
export class WideQueries {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The account holding an order of one mode by its external_id, whatever the account. */
  externalIdAccount(externalId: string, mode: Mode): string | undefined {
    const row = this.#db
      .prepare('SELECT account_id FROM orders WHERE external_id = ? AND mode = ? LIMIT 1')
      .get(externalId, mode) as { account_id: string } | undefined;
    return row?.account_id;
  }

  /** The ids of an account's active keys, but one. */
  otherActiveKeyIds(accountId: string, exceptKeyId: string): string[] {
    const rows = this.#db
      .prepare("SELECT id FROM api_keys WHERE account_id = ? AND status = 'active' AND id != ?")
      .all(accountId, exceptKeyId) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** The account holding an order of one mode, whatever the account. */
  orderAccount(id: string, mode: Mode): string | undefined {
    const row = this.#db
      .prepare('SELECT account_id FROM orders WHERE id = ? AND mode = ?')
      .get(id, mode) as { account_id: string } | undefined;
    return row?.account_id;
  }

  /** An idempotency record found by key alone, or key and one of account and mode. */
  idempotencyRecord(
    key: string,
    scope: { accountId?: string; mode?: Mode },
  ): IdempotencyRecord | undefined {
    const where = ['idempotency_key = ?'];
    const params: string[] = [key];
    if (scope.accountId !== undefined) {
      where.push('account_id = ?');
      params.push(scope.accountId);
    }
    if (scope.mode !== undefined) {
      where.push('mode = ?');
      params.push(scope.mode);
    }
    return this.#db
      .prepare(
        `SELECT fingerprint, order_id, created_at FROM idempotency_records WHERE ${where.join(' AND ')} LIMIT 1`,
      )
      .get(...params) as IdempotencyRecord | undefined;
  }

  /** The day's cancelled orders of one mode. */
  cancelledOnDay(accountId: string, mode: Mode, day: string): number {
    const row = this.#db
      .prepare(
        "SELECT count(*) AS n FROM orders WHERE account_id = ? AND mode = ? AND day = ? AND status = 'cancelled'",
      )
      .get(accountId, mode, day) as { n: number };
    return row.n;
  }

  /** The day's orders of both modes. */
  ordersOnDayAllModes(accountId: string, day: string): number {
    const row = this.#db
      .prepare(
        'SELECT coalesce(sum(orders), 0) AS n FROM daily_order_counts WHERE account_id = ? AND day = ?',
      )
      .get(accountId, day) as { n: number };
    return row.n;
  }

  /** A key's orders and their total, cancelled ones left out. */
  keyUsageWithoutCancelled(keyId: string): { count: number; total: number } {
    return this.#db
      .prepare(
        "SELECT count(*) AS count, coalesce(sum(total), 0) AS total FROM orders WHERE key_id = ? AND status != 'cancelled'",
      )
      .get(keyId) as { count: number; total: number };
  }

  /** Every live order of the account and their total. */
  accountLiveUsage(accountId: string): { count: number; total: number } {
    return this.#db
      .prepare(
        "SELECT count(*) AS count, coalesce(sum(total), 0) AS total FROM orders WHERE account_id = ? AND mode = 'live'",
      )
      .get(accountId) as { count: number; total: number };
  }

  /** Webhook endpoints of the account, of one mode or both, deleted ones in or out. */
  endpointCount(accountId: string, scope: { mode?: Mode; withDeleted: boolean }): number {
    const where = ['account_id = ?'];
    const params: string[] = [accountId];
    if (scope.mode !== undefined) {
      where.push('mode = ?');
      params.push(scope.mode);
    }
    if (!scope.withDeleted) where.push('deleted_at IS NULL');
    const row = this.#db
      .prepare(`SELECT count(*) AS n FROM webhook_endpoints WHERE ${where.join(' AND ')}`)
      .get(...params) as { n: number };
    return row.n;
  }

  /** The issue time of a key's earliest stored token. */
  firstTokenIssuedAt(keyId: string): number | undefined {
    const row = this.#db
      .prepare('SELECT MIN(issued_at) AS first FROM access_tokens WHERE key_id = ?')
      .get(keyId) as { first: number | null } | undefined;
    return row?.first ?? undefined;
  }

  /** A key's stored tokens, as rows to put back. */
  tokensOfKey(keyId: string): TokenRow[] {
    return this.#db
      .prepare('SELECT hash, key_id, scopes, issued_at FROM access_tokens WHERE key_id = ?')
      .all(keyId) as TokenRow[];
  }

  /** Stores a token row as it is, whatever its key is now (the correct store checks the key). */
  insertToken(row: TokenRow): void {
    this.#db
      .prepare('INSERT INTO access_tokens (hash, key_id, scopes, issued_at) VALUES (?, ?, ?, ?)')
      .run(row.hash, row.key_id, row.scopes, row.issued_at);
  }
}
