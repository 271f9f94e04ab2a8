import fc from 'fast-check';
import { IDEMPOTENCY_KEY_MAX } from './idempotencyKey.js';

/** Visible ASCII without the space, which HTTP would strip at a key's ends (RFC 9110 section 5.5). */
const VISIBLE = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i));
const ALPHANUMERIC = VISIBLE.filter((c) => /[0-9A-Za-z]/.test(c));

/**
 * An Idempotency-Key over the 255-character limit (sections 4 and 8): 256
 * characters half of the time (the boundary), otherwise up to 1024, of
 * alphanumerics or of any visible ASCII.
 */
export const overlongIdempotencyKey: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.constant(IDEMPOTENCY_KEY_MAX + 1),
      fc.integer({ min: IDEMPOTENCY_KEY_MAX + 2, max: 1024 }),
    ),
    fc.constantFrom(ALPHANUMERIC, VISIBLE),
  )
  .chain(([length, alphabet]) =>
    fc.string({ unit: fc.constantFrom(...alphabet), minLength: length, maxLength: length }),
  );

/**
 * The length every run of a property over `overlongIdempotencyKey` tries
 * besides the generated keys, so that the limit is tried whatever the seed:
 * one over the limit (the limit and
 * the length below it are IDEM-02's, `IDEMPOTENCY_KEY_LENGTHS`).
 */
export const OVERLONG_IDEMPOTENCY_KEY_LENGTHS: readonly number[] = [IDEMPOTENCY_KEY_MAX + 1];
