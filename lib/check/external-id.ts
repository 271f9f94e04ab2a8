import { randomUUID } from 'node:crypto';

/** Contract section 2: `external_id` has 1..64 characters. */
export const EXTERNAL_ID_MAX = 64;

/**
 * An `external_id` no earlier order can hold: external ids are unique per
 * account for ever (section 4), and a partner's sandbox keeps the orders of
 * earlier runs. Keeps `stem` as far as 64 characters allow.
 */
export function uniqueExternalId(stem = 'ct'): string {
  const nonce = randomUUID().replace(/-/g, '').slice(0, 12);
  return `${stem.slice(0, EXTERNAL_ID_MAX - nonce.length - 1)}-${nonce}`;
}
