import { PROBATION } from '../../config/api.js';
import { formatUsd } from '../../domain/money.js';
import { ApiProblem } from '../../problems/api-problem.js';
import type { ApiKey } from '../../store/keys.js';
import type { HasDefect } from '../catalogue.js';

/** §3: a live key is on probation for its first 24 hours unless the operator ended it. */
export function onProbation(key: ApiKey, now: number, hasDefect: HasDefect): boolean {
  const inFirstDay =
    now < key.createdAt + PROBATION.durationMs || hasDefect('probation-never-lifted');
  const mode = key.mode === 'live' || hasDefect('probation-on-test-keys');
  return mode && !key.probationEnded && inFirstDay;
}

/**
 * §3 probation: at most 3 orders or $500.00 in the first 24 hours of a new
 * live key; beyond that 422 `limit_exceeded` (§7). Contract §2: counts the
 * key's orders, cancelled ones included, and their totals.
 */
export function checkProbation(
  used: { count: number; total: number },
  orderTotal: number,
  hasDefect: HasDefect,
): void {
  if (used.count >= PROBATION.maxOrders && !hasDefect('probation-orders-unlimited')) {
    throw new ApiProblem(
      'limit_exceeded',
      `A new live key may place at most ${PROBATION.maxOrders} orders in its first 24 hours; ` +
        'wait, or ask the operator to end probation.',
    );
  }
  if (
    used.total + orderTotal > PROBATION.maxTotalCents &&
    !hasDefect('probation-value-unlimited')
  ) {
    throw new ApiProblem(
      'limit_exceeded',
      `A new live key may place at most ${formatUsd(PROBATION.maxTotalCents)} of orders in its first ` +
        `24 hours; ${formatUsd(used.total)} is used and this order is ${formatUsd(orderTotal)}. ` +
        'Wait, or ask the operator to end probation.',
    );
  }
}
