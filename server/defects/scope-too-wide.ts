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
  const row = store.db
    .prepare('SELECT account_id FROM orders WHERE external_id = ? AND mode = ? LIMIT 1')
    .get(externalId, mode) as { account_id: string } | undefined;
  return row && store.orders.getByExternalId(row.account_id, mode, externalId);
}

/** `revoke-revokes-account-keys`: §3 revokes one key; this revokes every active key of its account. */
export function revokeAccountKeys(store: Store, revoked: ApiKey): void {
  const rows = store.db
    .prepare("SELECT id FROM api_keys WHERE account_id = ? AND status = 'active' AND id != ?")
    .all(revoked.accountId, revoked.id) as { id: string }[];
  for (const { id } of rows) {
    const key = store.keys.get(id);
    if (key) store.keys.revoke(key);
  }
}
