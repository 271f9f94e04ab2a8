import type { PlaceOrderBehaviour } from '../../orders/place-order.js';
import type { Store } from '../../store/index.js';
import type { HasDefect } from '../catalogue.js';
import { accountLiveUsage, keyUsageWithoutCancelled } from '../lookups.js';

type Probation = Pick<PlaceOrderBehaviour, 'onProbation' | 'probationUsage' | 'checkProbation'>;

/**
 * The probation defects (§3): the correct decisions of orders/probation.ts,
 * shown a key, clock, usage or total bent so that they misjudge.
 */
export function bentProbation(correct: Probation, store: Store, hasDefect: HasDefect): Probation {
  return {
    onProbation: (key, now) =>
      correct.onProbation(
        hasDefect('probation-on-test-keys') ? { ...key, mode: 'live' } : key,
        hasDefect('probation-never-lifted') ? key.createdAt : now,
      ),
    probationUsage: (key) =>
      hasDefect('probation-skips-cancelled')
        ? keyUsageWithoutCancelled(store, key.id)
        : hasDefect('probation-per-account')
          ? accountLiveUsage(store, key.accountId)
          : correct.probationUsage(key),
    checkProbation: (used, orderTotal) => {
      const valueUnlimited = hasDefect('probation-value-unlimited');
      correct.checkProbation(
        {
          count: hasDefect('probation-orders-unlimited') ? 0 : used.count,
          total: valueUnlimited ? 0 : used.total,
        },
        valueUnlimited ? 0 : orderTotal,
      );
    },
  };
}
