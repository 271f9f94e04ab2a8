import fc from 'fast-check';

const BASE62 = [...'0123456789', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', ...'abcdefghijklmnopqrstuvwxyz'];
const TOKEN68 = [...BASE62, '-', '.', '_', '~', '+', '/'];

/**
 * A bearer token the target never issued (section 5, rule 3): shaped like
 * the real ones (`<prefix>_at_` and base62 characters), shaped like another
 * service's (`<prefix>_at_` with a different prefix), or any token68 string
 * (RFC 6750 §2.1), so an unknown token is told apart by lookup, not by shape.
 */
export function forgedToken(prefix: string): fc.Arbitrary<string> {
  const chars = (alphabet: string[], min: number, max: number) =>
    fc
      .array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max })
      .map((c) => c.join(''));
  return fc.oneof(
    chars(BASE62, 24, 48).map((tail) => `${prefix}_at_${tail}`),
    fc
      .tuple(fc.stringMatching(/^[a-z]{2,6}$/), chars(BASE62, 16, 40))
      .map(([other, tail]) => `${other}_at_${tail}`),
    fc
      .tuple(chars(TOKEN68, 1, 80), fc.integer({ min: 0, max: 2 }))
      .map(([body, pad]) => body + '='.repeat(pad)),
  );
}
