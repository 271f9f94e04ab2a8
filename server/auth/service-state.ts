import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';

/** §7, contract §3: `service: unavailable` answers 503 `api_unavailable` to everything. */
export function checkAvailable(account: Account): void {
  if (account.settings.service === 'unavailable') {
    throw new ApiProblem(
      'api_unavailable',
      'The API is switched off for maintenance. Nothing was charged; try again later.',
    );
  }
}

/**
 * §7 `read_only`: reads work; new orders and quotes are paused (MUST). Contract
 * §2 readings: the reference also pauses every other write (DIALECT); token
 * requests still work.
 */
export function checkWritable(account: Account): void {
  if (account.settings.service === 'read_only') {
    throw new ApiProblem(
      'read_only',
      'The API is read-only for now: reads work, writes are paused. Retry the write later.',
    );
  }
}
