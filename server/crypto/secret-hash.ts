import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Secrets (Secret Keys, access tokens, the control token) are stored and held
 * only as SHA-256 digests. A plain fast hash is right here: every secret is
 * 200+ bits of CSPRNG output, so there is nothing to brute-force that a slow
 * password hash would protect (a stolen store then holds no usable secret).
 */
export function hashSecret(secret: string): Buffer {
  return sha256(secret);
}

/** SHA-256 of UTF-8 text (also used for request fingerprints). */
export function sha256(text: string): Buffer {
  // Through a binary (latin1) string (byte for byte, so the same digest): Node 20's `'buffer'` output is about
  // twice as slow, and every authenticated request hashes its token.
  return Buffer.from(hash('sha256', text, 'binary'), 'binary');
}

/** Compares two digests in constant time; digests of unequal length never match. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Compares a presented secret with a stored digest in constant time. */
export function secretMatches(presented: string, storedDigest: Buffer): boolean {
  return digestsEqual(hashSecret(presented), storedDigest);
}
