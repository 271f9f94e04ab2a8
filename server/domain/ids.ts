import { randomBytes } from 'node:crypto';
import {
  ACCESS_KEY_ID_CHARS,
  KEY_PREFIX,
  OBJECT_ID_CHARS,
  SECRET_CHARS,
  TOKEN_CHARS,
} from '../config/api.js';
import type { Mode } from './modes.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHABET_CODES = Buffer.from(ALPHABET, 'latin1');
/** Scratch bytes for randomBase62 (synchronous, so one buffer serves every call). */
const SCRATCH = Buffer.alloc(256);

/**
 * CSPRNG bytes drawn 4 KiB at a time: one system call serves about a hundred
 * ids instead of one each (every request needs a request id). Each byte is
 * used once.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function randomByte(): number {
  if (offset === POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++] as number;
}

/**
 * Uniformly random base62 text from the CSPRNG. Bytes of 248 and above are
 * skipped so that `byte % 62` carries no bias (248 = 4 × 62).
 */
export function randomBase62(length: number): string {
  // Written into bytes and read out once: a flat string, not `length` concatenations (one per request id).
  const out = length <= SCRATCH.length ? SCRATCH : Buffer.allocUnsafe(length);
  let n = 0;
  while (n < length) {
    const byte = randomByte();
    if (byte < 248) out[n++] = ALPHABET_CODES[byte % 62] as number;
  }
  return out.toString('latin1', 0, n);
}

/** Object ids: a type prefix and 24 random base62 characters, e.g. `ord_…`. */
export type IdPrefix = 'acct' | 'ord' | 'quo' | 'evt' | 'we' | 'shp' | 'inv' | 'req' | 'flt' | 'ch';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(OBJECT_ID_CHARS)}`;
}

/** §2 API key: `odp_test_ak_<chars>` identifies the key and is safe to log. */
export function newAccessKeyId(mode: Mode): string {
  return `${KEY_PREFIX}_${mode}_ak_${randomBase62(ACCESS_KEY_ID_CHARS)}`;
}

/** §2 API key: `odp_test_sk_<chars>` is the secret, shown once. */
export function newSecretKey(mode: Mode): string {
  return `${KEY_PREFIX}_${mode}_sk_${randomBase62(SECRET_CHARS)}`;
}

/** §2 access token response: `odp_at_<chars>`. */
export function newAccessToken(): string {
  return `${KEY_PREFIX}_at_${randomBase62(TOKEN_CHARS)}`;
}
