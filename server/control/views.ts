import { rfc3339 } from '../domain/time.js';
import type { Account } from '../store/accounts.js';

/** Contract §3: an account is `{"id", ...settings}`; `now` is its clock, for convenience. */
export function controlAccountView(account: Account, now: number) {
  return { id: account.id, ...account.settings, now: rfc3339(now) };
}
