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
export async function externalIdInAnyAccount(
  store: Store,
  mode: Mode,
  externalId: string,
): Promise<Order | undefined> {
  const accountId = await store.wide.externalIdAccount(externalId, mode);
  return accountId === undefined
    ? undefined
    : store.orders.getByExternalId(accountId, mode, externalId);
}

/** `revoke-revokes-account-keys`: §3 revokes one key; this revokes every active key of its account. */
export async function revokeAccountKeys(store: Store, revoked: ApiKey): Promise<void> {
  for (const id of await store.wide.otherActiveKeyIds(revoked.accountId, revoked.id)) {
    const key = await store.keys.get(id);
    if (key) await store.keys.revoke(key);
  }
}
