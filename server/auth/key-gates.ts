import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import type { ApiKey } from '../store/keys.js';
import { ipAllowed } from './ip-allowlist.js';

/**
 * Key-level refusals (§5.9, §5.10). Contract §2 readings: they may come at the
 * token request or at the API call; the reference refuses at the token request
 * and again at every call, so a token stops working the moment live access or
 * test mode is switched off, or when it is used from another address.
 */
export function checkKeyGates(key: ApiKey, account: Account, ip: string): void {
  if (!ipAllowed(key, ip)) {
    throw new ApiProblem(
      'ip_not_allowed',
      'This key is limited to certain IP addresses and the call came from another.',
    );
  }
  if (key.mode === 'live' && !account.settings.live_access) {
    throw new ApiProblem(
      'api_not_enabled',
      'Live access is not switched on for this account yet; use the test key or ask for live access.',
    );
  }
  if (key.mode === 'test' && !account.settings.test_mode) {
    throw new ApiProblem(
      'sandbox_not_enabled',
      'Test mode is off for this account; ask for test mode.',
    );
  }
}
