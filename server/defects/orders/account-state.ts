import type { PlaceOrderBehaviour } from '../../orders/place-order.js';
import type { HasDefect } from '../catalogue.js';

/**
 * `suspended-orders-placed`, `incomplete-not-enforced`,
 * `read-only-orders-placed`: the correct check of orders/account-state.ts,
 * shown an account whose overlooked state is cleared.
 */
export function bentCheckCanPlaceOrders(
  correct: PlaceOrderBehaviour['checkCanPlaceOrders'],
  hasDefect: HasDefect,
): PlaceOrderBehaviour['checkCanPlaceOrders'] {
  return (account) => {
    const { settings } = account;
    correct({
      ...account,
      settings: {
        ...settings,
        suspended: settings.suspended && !hasDefect('suspended-orders-placed'),
        incomplete: settings.incomplete && !hasDefect('incomplete-not-enforced'),
        service:
          settings.service === 'read_only' && hasDefect('read-only-orders-placed')
            ? 'normal'
            : settings.service,
      },
    });
  };
}
