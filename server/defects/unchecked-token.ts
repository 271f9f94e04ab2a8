import { hashSecret } from '../crypto/secret-hash.js';
import type { ApiKey } from '../store/keys.js';
import type { Wide } from './store/wide.js';

/**
 * A token stored whatever its key is by now (the correct store keeps it only
 * while the key is active with the secret that was checked), after
 * `before` (a round trip in which a roll or revoke may land).
 */
export function storeTokenUnchecked(wide: Wide, before?: () => Promise<void>) {
  return () =>
    async (
      token: string,
      key: ApiKey,
      scopes: readonly string[],
      now: number,
    ): Promise<boolean> => {
      await before?.();
      await wide.insertToken({
        hash: hashSecret(token),
        key_id: key.id,
        scopes: scopes.join(' '),
        issued_at: now,
      });
      return true;
    };
}
