import type { Mode } from '../domain/modes.js';
import type { Order } from '../domain/order.js';
import type { IdempotencyRecord } from '../store/idempotency.js';
import type { Store } from '../store/index.js';

/**
 * The wrong questions some defects ask the database: lookups across accounts
 * or modes, and counts that leave out or add in what the rules say. The
 * queries themselves are store methods (store/wide-queries.ts).
 */

/** `other-account-orders-visible`: an order of one mode by id, in whatever account holds it. */
export async function orderInAnyAccount(
  store: Store,
  mode: Mode,
  id: string,
): Promise<Order | undefined> {
  const accountId = await store.wide.orderAccount(id, mode);
  return accountId === undefined ? undefined : store.orders.get(accountId, mode, id);
}

/** `idem-keys-across-accounts`, `idem-keys-across-modes`: a record found by key alone (or key and one scope). */
export function idempotencyRecordAcross(
  store: Store,
  key: string,
  scope: { accountId?: string; mode?: Mode },
): Promise<IdempotencyRecord | undefined> {
  return store.wide.idempotencyRecord(key, scope);
}

/** `orders-per-day-skips-cancelled`: the day's orders of one mode that are cancelled. */
export function cancelledOnDay(
  store: Store,
  accountId: string,
  mode: Mode,
  day: string,
): Promise<number> {
  return store.wide.cancelledOnDay(accountId, mode, day);
}

/** `orders-per-day-across-modes`: the day's orders of both modes. */
export function ordersOnDayAllModes(store: Store, accountId: string, day: string): Promise<number> {
  return store.wide.ordersOnDayAllModes(accountId, day);
}

/** `probation-skips-cancelled`: a key's orders and total, cancelled ones left out. */
export function keyUsageWithoutCancelled(
  store: Store,
  keyId: string,
): Promise<{ count: number; total: number }> {
  return store.wide.keyUsageWithoutCancelled(keyId);
}

/** `probation-per-account`: every live order of the account and their total. */
export function accountLiveUsage(
  store: Store,
  accountId: string,
): Promise<{ count: number; total: number }> {
  return store.wide.accountLiveUsage(accountId);
}

/** `webhook-limit-across-modes`, `deleted-endpoints-counted`: endpoints counted too widely. */
export function endpointsCountedWidely(
  store: Store,
  accountId: string,
  scope: { mode?: Mode; withDeleted: boolean },
): Promise<number> {
  return store.wide.endpointCount(accountId, scope);
}
