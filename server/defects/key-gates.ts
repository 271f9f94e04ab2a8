import { ipAllowed } from '../auth/ip-allowlist.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import type { ApiKey } from '../store/keys.js';
import type { HasDefect } from './catalogue.js';
import { ipListedExactly } from './ip-exact.js';

/**
 * The key gates (auth/key-gates.ts) with the §5.9, §5.10 defects switched in.
 */
export function defectiveKeyGates(
  key: ApiKey,
  account: Account,
  ip: string,
  hasDefect: HasDefect,
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
    (key.mode === 'live' || hasDefect('live-access-off-refuses-test-keys')) &&
    !account.settings.live_access &&
    !hasDefect('live-key-before-live-access')
  ) {
    throw new ApiProblem(
      'api_not_enabled',
      'Live access is not switched on for this account yet; use the test key or ask for live access.',
    );
  }
  if (
    (key.mode === 'test' || hasDefect('sandbox-off-refuses-live-keys')) &&
    !account.settings.test_mode &&
    !hasDefect('sandbox-not-enforced')
  ) {
    throw new ApiProblem(
      'sandbox_not_enabled',
      'Test mode is off for this account; ask for test mode.',
    );
  }
}
