import { type HasDefect, NO_DEFECTS } from '../defects/catalogue.js';
import { ipListedExactly } from '../defects/ip-exact.js';
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
export function checkKeyGates(
  key: ApiKey,
  account: Account,
  ip: string,
  hasDefect: HasDefect = NO_DEFECTS,
): void {
  const allowed = hasDefect('ip-allowlist-ranges-ignored')
    ? ipListedExactly(key, ip)
    : ipAllowed(key, ip);
  if (!allowed && !hasDefect('ip-allowlist-ignored')) {
    throw new ApiProblem(
      'ip_not_allowed',
      'This key is limited to certain IP addresses and the call came from another.',
    );
  }
  if (
    key.mode === 'live' &&
    !account.settings.live_access &&
    !hasDefect('live-key-before-live-access')
  ) {
    throw new ApiProblem(
      'api_not_enabled',
      'Live access is not switched on for this account yet; use the test key or ask for live access.',
    );
  }
  if (key.mode === 'test' && !account.settings.test_mode && !hasDefect('sandbox-not-enforced')) {
    throw new ApiProblem(
      'sandbox_not_enabled',
      'Test mode is off for this account; ask for test mode.',
    );
  }
}
