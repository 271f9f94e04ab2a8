import type { Mode } from '../domain/modes.js';
import type { Order } from '../domain/order.js';
import type { Store } from '../store/index.js';
import type { ApiKey } from '../store/keys.js';

/**
 * Defects that apply a scoped rule of the API document too widely (issue 12,
 * docs/rules.md "Scoped statements"): the rule's own refusal is kept, and it
 * also reaches what the document leaves out of its scope.
 */

/** `external-id-unique-across-accounts`: §4 rule 4 says unique per account; this looks in every account. */
export function externalIdInAnyAccount(
  store: Store,
  mode: Mode,
  externalId: string,
): Order | undefined {
  const accountId = store.wide.externalIdAccount(externalId, mode);
  return accountId === undefined
    ? undefined
    : store.orders.getByExternalId(accountId, mode, externalId);
}

/** `revoke-revokes-account-keys`: §3 revokes one key; this revokes every active key of its account. */
export function revokeAccountKeys(store: Store, revoked: ApiKey): void {
  for (const id of store.wide.otherActiveKeyIds(revoked.accountId, revoked.id)) {
    const key = store.keys.get(id);
    if (key) store.keys.revoke(key);
  }
}
