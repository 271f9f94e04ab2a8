import { checkWritable } from '../auth/service-state.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';

/** §5.11: a suspended partner account gets 403 `partner_suspended` on new orders (and, in the reference, quotes). */
export function checkNotSuspended(account: Account, what: string): void {
  if (account.settings.suspended) {
    throw new ApiProblem(
      'partner_suspended',
      `The partner account is paused: reads work, ${what} are refused. Contact the operator.`,
    );
  }
}

/**
 * What must hold before a NEW order is placed: not suspended (§5.11), not
 * incomplete (§7 `account_incomplete`), not read-only (§7 `read_only`).
 */
export function checkCanPlaceOrders(account: Account): void {
  checkNotSuspended(account, 'new orders');
  if (account.settings.incomplete) {
    throw new ApiProblem(
      'account_incomplete',
      'The partner account lacks something needed to place orders. Contact the operator.',
    );
  }
  checkWritable(account);
}
