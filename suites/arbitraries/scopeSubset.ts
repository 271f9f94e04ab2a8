import fc from 'fast-check';

/**
 * A non-empty subset of `scopes`, in a random order (section 5, rule 7: a
 * token carries the key's scopes or the subset asked for with `scope`; the
 * order of a space-separated list means nothing). Shrinks toward the first
 * scope alone.
 */
export function scopeSubset(scopes: readonly string[]): fc.Arbitrary<string[]> {
  return fc.shuffledSubarray([...scopes], { minLength: 1 });
}
