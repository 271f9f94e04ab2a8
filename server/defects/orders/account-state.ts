import { checkWritable } from '../../auth/service-state.js';
import { checkNotSuspended } from '../../orders/account-state.js';
import { ApiProblem } from '../../problems/api-problem.js';
import type { Account } from '../../store/accounts.js';
import type { HasDefect } from '../catalogue.js';

/**
 * What must hold before a NEW order is placed: not suspended (§5.11), not
 * incomplete (§7 `account_incomplete`), not read-only (§7 `read_only`).
 */
export function checkCanPlaceOrders(account: Account, hasDefect: HasDefect): void {
  if (!hasDefect('suspended-orders-placed')) checkNotSuspended(account, 'new orders');
  if (account.settings.incomplete && !hasDefect('incomplete-not-enforced')) {
    throw new ApiProblem(
      'account_incomplete',
      'The partner account lacks something needed to place orders. Contact the operator.',
    );
  }
  if (!hasDefect('read-only-orders-placed')) checkWritable(account);
}
