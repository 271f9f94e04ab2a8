import type { Mode } from '../domain/modes.js';
import type { Order } from '../domain/order.js';
import type { IdempotencyRecord } from '../store/idempotency.js';
import type { Store } from '../store/index.js';

/**
 * The wrong questions some defects ask the database: lookups across accounts
 * or modes, and counts that leave out or add in what the rules say. Prepared
 * per call: only a defective server ever asks them.
 */

/** `other-account-orders-visible`: an order of one mode by id, in whatever account holds it. */
export function orderInAnyAccount(store: Store, mode: Mode, id: string): Order | undefined {
  const row = store.db
    .prepare('SELECT account_id FROM orders WHERE id = ? AND mode = ?')
    .get(id, mode) as { account_id: string } | undefined;
  return row && store.orders.get(row.account_id, mode, id);
}

/** `idem-keys-across-accounts`, `idem-keys-across-modes`: a record found by key alone (or key and one scope). */
export function idempotencyRecordAcross(
  store: Store,
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
  return store.db
    .prepare(
      `SELECT fingerprint, order_id, created_at FROM idempotency_records WHERE ${where.join(' AND ')} LIMIT 1`,
    )
    .get(...params) as IdempotencyRecord | undefined;
}

/** `orders-per-day-skips-cancelled`: the day's orders of one mode that are cancelled. */
export function cancelledOnDay(store: Store, accountId: string, mode: Mode, day: string): number {
  const row = store.db
    .prepare(
      "SELECT count(*) AS n FROM orders WHERE account_id = ? AND mode = ? AND day = ? AND status = 'cancelled'",
    )
    .get(accountId, mode, day) as { n: number };
  return row.n;
}

/** `orders-per-day-across-modes`: the day's orders of both modes. */
export function ordersOnDayAllModes(store: Store, accountId: string, day: string): number {
  const row = store.db
    .prepare(
      'SELECT coalesce(sum(orders), 0) AS n FROM daily_order_counts WHERE account_id = ? AND day = ?',
    )
    .get(accountId, day) as { n: number };
  return row.n;
}

/** `probation-skips-cancelled`: a key's orders and total, cancelled ones left out. */
export function keyUsageWithoutCancelled(
  store: Store,
  keyId: string,
): { count: number; total: number } {
  return store.db
    .prepare(
      "SELECT count(*) AS count, coalesce(sum(total), 0) AS total FROM orders WHERE key_id = ? AND status != 'cancelled'",
    )
    .get(keyId) as { count: number; total: number };
}

/** `probation-per-account`: every live order of the account and their total. */
export function accountLiveUsage(
  store: Store,
  accountId: string,
): { count: number; total: number } {
  return store.db
    .prepare(
      "SELECT count(*) AS count, coalesce(sum(total), 0) AS total FROM orders WHERE account_id = ? AND mode = 'live'",
    )
    .get(accountId) as { count: number; total: number };
}

/** `webhook-limit-across-modes`, `deleted-endpoints-counted`: endpoints counted too widely. */
export function endpointsCountedWidely(
  store: Store,
  accountId: string,
  scope: { mode?: Mode; withDeleted: boolean },
): number {
  const where = ['account_id = ?'];
  const params: string[] = [accountId];
  if (scope.mode !== undefined) {
    where.push('mode = ?');
    params.push(scope.mode);
  }
  if (!scope.withDeleted) where.push('deleted_at IS NULL');
  const row = store.db
    .prepare(`SELECT count(*) AS n FROM webhook_endpoints WHERE ${where.join(' AND ')}`)
    .get(...params) as { n: number };
  return row.n;
}
