import type { Principal } from '../auth/principal.js';
import { money } from '../domain/money.js';

/**
 * §2 account, contract §2: `{id, name, livemode, billing_method, limits:
 * {max_order_value, max_orders_per_day}, scopes}`. §2 says the account shows
 * "the key's scopes": the scopes of the key, not a narrower token's.
 */
export function accountView(principal: Principal) {
  const { settings } = principal.account;
  return {
    id: principal.account.id,
    object: 'account' as const,
    name: settings.name,
    livemode: principal.mode === 'live',
    billing_method: settings.billing.method,
    limits: {
      max_order_value: money(settings.limits.max_order_value),
      max_orders_per_day: settings.limits.max_orders_per_day,
    },
    scopes: [...principal.key.scopes],
  };
}
