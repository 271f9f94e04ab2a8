import fc from 'fast-check';

/** One request whose URL carries a credential, and how. */
export interface CredentialUrl {
  method: string;
  path: string;
  /** Which credential (a key of the record given). */
  credential: string;
  encoding: string;
  /** The credential as it appears in the URL. */
  encoded: string;
  toString(): string;
}

const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');
const percentAll = (text: string, upper: boolean) =>
  [...text]
    .map((c) => {
      const code = c.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${upper ? code.toUpperCase() : code}`;
    })
    .join('');

/** Every encoding a log scrubber must see through, each as a function of the credential. */
const ENCODINGS: Record<string, (text: string, picks: readonly boolean[]) => string> = {
  clear: (t) => t,
  'percent-encoded underscores': (t) => t.replaceAll('_', '%5F'),
  'percent-encoded, lower case': (t) => percentAll(t, false),
  'percent-encoded, upper case': (t) => percentAll(t, true),
  'percent-encoded in places': (t, picks) =>
    [...t].map((c, i) => (picks[i % picks.length] ? percentAll(c, i % 2 === 0) : c)).join(''),
  'percent-encoded twice': (t) => percentAll(t, false).replaceAll('%', '%25'),
  'percent-encoded three times': (t) =>
    percentAll(t, true).replaceAll('%', '%25').replaceAll('%', '%25'),
  hex: (t) => hex(t),
  'hex, upper case': (t) => hex(t).toUpperCase(),
  'hex with 0x': (t) => `0x${hex(t)}`,
  'hex, percent-encoded': (t) => percentAll(hex(t), false),
  '\\x escapes, percent-encoded': (t) =>
    [...t].map((c) => `%5Cx${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
  '\\u escapes, percent-encoded': (t) =>
    [...t].map((c) => `%5Cu${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  base64: (t) => Buffer.from(t).toString('base64'),
  'base64, percent-encoded': (t) => encodeURIComponent(Buffer.from(t).toString('base64')),
  base64url: (t) => Buffer.from(t).toString('base64url'),
  'base64 of Basic credentials': (t) => Buffer.from(`x:${t}`).toString('base64url'),
};

/** Where in a request the encoded credential goes. */
const PLACES: ReadonlyArray<readonly [string, (x: string) => string]> = [
  ['GET', (x) => `/api/on-demand/v1/orders/${x}`],
  ['GET', (x) => `/api/on-demand/v1/orders/by-external-id/${x}`],
  ['POST', (x) => `/api/on-demand/v1/orders/${x}/cancel`],
  ['GET', (x) => `/api/on-demand/v1/${x}/orders`],
  ['GET', (x) => `/${x}`],
  ['GET', (x) => `/__control/keys/${x}`],
  ['GET', (x) => `/__control/${x}`],
  ['DELETE', (x) => `/api/on-demand/v1/webhook-endpoints/${x}`],
  ['GET', (x) => `/api/on-demand/v1/orders/prefix-${x}-suffix`],
  ['GET', (x) => `/api/on-demand/v1/orders/${x}%zz`],
  ['GET', (x) => `/api/on-demand/v1/orders?starting_after=${x}`],
  ['GET', (x) => `/api/on-demand/v1/orders?${x}=1`],
  ['GET', (x) => `/api/on-demand/v1/account;${x}`],
];

/**
 * A request whose URL holds one of `credentials`, in one of the encodings
 * above, at one of the places above.
 */
export function credentialUrl(credentials: Record<string, string>): fc.Arbitrary<CredentialUrl> {
  return fc
    .record({
      credential: fc.constantFrom(...Object.keys(credentials)),
      encoding: fc.constantFrom(...Object.keys(ENCODINGS)),
      place: fc.integer({ min: 0, max: PLACES.length - 1 }),
      picks: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
    })
    .map(({ credential, encoding, place, picks }) => {
      const encoded =
        (ENCODINGS[encoding] ?? ENCODINGS.clear)?.(credentials[credential] ?? '', picks) ?? '';
      const [method, at] = PLACES[place] ?? PLACES[0] ?? ['GET', (x: string) => x];
      const path = at(encoded);
      return {
        method,
        path,
        credential,
        encoding,
        encoded,
        toString: () => `${credential} ${encoding} in ${method} ${path}`,
      };
    });
}
