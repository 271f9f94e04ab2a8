import fc from 'fast-check';

/** Which characters of a credential to percent-escape, and in which hex case. */
export interface PercentEscapeMask {
  /** `escape[i]` escapes character i (indexes past the end are ignored). */
  escape: boolean[];
  upperHex: boolean;
}

/**
 * How a client may form-encode a Basic user or password before base64
 * (RFC 6749 §2.3.1, application/x-www-form-urlencoded): any character may be
 * written as `%XX`, in either hex case. The mask, not the encoded credential,
 * is what is generated, so a counterexample never shows a secret.
 */
export function percentEscapeMask(length: number): fc.Arbitrary<PercentEscapeMask> {
  return fc.record({
    escape: fc.array(fc.boolean(), { minLength: length, maxLength: length }),
    upperHex: fc.boolean(),
  });
}

/** Applies a mask to a credential. */
export function escapeWith(value: string, mask: PercentEscapeMask): string {
  return [...value]
    .map((char, i) => {
      if (!mask.escape[i]) return char;
      const hex = [...Buffer.from(char, 'utf8')]
        .map((byte) => byte.toString(16).padStart(2, '0'))
        .map((h) => (mask.upperHex ? h.toUpperCase() : h));
      return hex.map((h) => `%${h}`).join('');
    })
    .join('');
}
