import fc from 'fast-check';

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
const DIGITS = range(0x30, 0x39);
const UPPER = range(0x41, 0x5a);
const LOWER = range(0x61, 0x7a);
const ALPHANUMERIC = [...DIGITS, ...UPPER, ...LOWER];
const BASE64URL = [...ALPHANUMERIC, '-', '_'];
const HEX = [...DIGITS, ...range(0x61, 0x66)];
/** Every character an HTTP field value carries as itself: visible ASCII and the space. */
const VISIBLE = range(0x20, 0x7e);

/** Section 4, section 8: an Idempotency-Key is up to 255 characters. */
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * Keys of one alphabet, of every length from 1 to 255 (fast-check biases the
 * length toward both ends, so 1 and 255 come up often). A space may stand
 * inside a key but not at its ends, where HTTP strips it (RFC 9110 section 5.5).
 */
function keysOf(alphabet: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 1, max: IDEMPOTENCY_KEY_MAX }),
      fc.array(fc.constantFrom(...alphabet), {
        minLength: IDEMPOTENCY_KEY_MAX,
        maxLength: IDEMPOTENCY_KEY_MAX,
      }),
    )
    .map(([length, chars]) => {
      const key = chars.slice(0, length);
      if (key[0] === ' ') key[0] = '~';
      if (key[key.length - 1] === ' ') key[key.length - 1] = '~';
      return key.join('');
    });
}

/**
 * An Idempotency-Key a client may send (section 4): 1 to 255 characters of
 * the usual alphabets (UUIDs, hex digests, base64url tokens) and of any
 * visible ASCII, spaces inside included.
 */
export const idempotencyKey: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  keysOf(HEX),
  keysOf(ALPHANUMERIC),
  keysOf(BASE64URL),
  keysOf(VISIBLE),
);

/**
 * The lengths every run of a property over `idempotencyKey` tries besides
 * the generated keys: the limit of sections 4 and 8 and the length
 * below it (the length above is IDEM-03's, `OVERLONG_IDEMPOTENCY_KEY_LENGTHS`).
 * Generated keys reach 255 only by chance, whatever the bias of fast-check.
 */
export const IDEMPOTENCY_KEY_LENGTHS: readonly number[] = [
  IDEMPOTENCY_KEY_MAX - 1,
  IDEMPOTENCY_KEY_MAX,
];

/**
 * A key of each length, made of `salt` (drawn from the run's seed, so a
 * partner sandbox that keeps keys of earlier runs takes it as new, and
 * `--seed` replays it) and filler characters. As fast-check `examples`: `{ examples: keysOfLengths(lengths, salt) }`.
 */
export function keysOfLengths(lengths: readonly number[], salt: string): [string][] {
  return lengths.map((length) => [`${salt}-`.padEnd(length, 'k').slice(0, length)]);
}
