import type { AccountSettings } from '../../domain/account-settings.js';
import { formatUsd } from '../../domain/money.js';
import { ApiProblem } from '../../problems/api-problem.js';
import type { HasDefect } from '../catalogue.js';

/**
 * §4 rule 5 and §8: an order must not exceed the account's maximum order value
 * or maximum orders per day; 422 `validation_failed` whose message names the
 * limit (§7). The day is the UTC day of the account clock, counted per mode
 * with cancelled orders included (contract §2). Neither concerns one field,
 * so the `errors[]` entry has no pointer (contract §2 readings).
 */
export function checkAccountLimits(
  settings: AccountSettings,
  total: number,
  ordersToday: number,
  hasDefect: HasDefect,
): void {
  const { max_order_value, max_orders_per_day } = settings.limits;
  const over = hasDefect('order-max-value-exclusive')
    ? total >= max_order_value
    : total > max_order_value;
  if (over && !hasDefect('order-max-value-ignored')) {
    const detail =
      `The order total ${formatUsd(total)} exceeds the account's maximum order value ` +
      `(limits.max_order_value) of ${formatUsd(max_order_value)}.`;
    throw new ApiProblem('validation_failed', detail, { errors: [{ detail }] });
  }
  if (ordersToday >= max_orders_per_day && !hasDefect('orders-per-day-ignored')) {
    const detail =
      `The account's maximum orders per day (limits.max_orders_per_day) of ${max_orders_per_day} ` +
      'is reached for today (UTC).';
    throw new ApiProblem('validation_failed', detail, { errors: [{ detail }] });
  }
}
