import { KEY_PREFIX } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';

/** Secret Keys, Access Key IDs and access tokens, by their §2 shapes. */
export const CREDENTIAL_SHAPE = new RegExp(
  `${KEY_PREFIX}_(?:(?:test|live)_(?:sk|ak)|at)_[0-9A-Za-z]{24,}`,
);

/** Base64 long enough to hold an Access Key ID and a Secret Key (RFC 7617 Basic credentials). */
export const LONG_BASE64 = /[A-Za-z0-9+/_-]{64,}={0,2}/g;

/**
 * Whether a base64 run, decoded, holds something credential-shaped. Four
 * groups of base64 characters decode to three bytes whatever surrounds them,
 * so decoding the run from each of its first four characters finds a
 * credential at any offset (after a `/` of a path, say) in linear time.
 */
export function base64RunHoldsCredential(run: string): boolean {
  for (let from = 0; from < 4 && from < run.length; from++) {
    const text = Buffer.from(run.slice(from), 'base64').toString('latin1');
    if (text.includes(`${KEY_PREFIX}_`) && CREDENTIAL_SHAPE.test(text)) return true;
  }
  return false;
}

/** Secret Keys and access tokens only: what the control API never takes in its paths. */
const SECRET_SHAPE = new RegExp(`${KEY_PREFIX}_(?:(?:test|live)_sk|at)_[0-9A-Za-z]{24,}`);

/** Query parameters that carry credentials by name (RFC 6750 §2.3 `access_token`, OAuth `client_secret`, …). */
const CREDENTIAL_PARAMS = new Set([
  'access_token',
  'client_secret',
  'secret_key',
  'api_key',
  'apikey',
  'token',
]);

/**
 * Percent-escapes decoded one byte at a time, each byte read as one character.
 * Not `decodeURIComponent`: one malformed escape anywhere (`%zz`) makes it
 * throw, and a credential escaped elsewhere in the same URL would slip through.
 * The credential shapes are ASCII, so byte-wise decoding finds them all.
 */
export function decodeUrlBytes(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  return text
    .replaceAll('+', ' ')
    .replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
}

export interface UrlCredentialPolicy {
  /** The control API's own paths name keys by Access Key ID (contract §3): allowed there. */
  accessKeyIdsAllowed?: boolean;
  /** The control token, refused in any URL like a key (when long enough to look for). */
  controlToken?: string | undefined;
}

/**
 * §5.6, §7: credentials in a URL are refused with 400 `credentials_in_url`.
 * Contract §2 readings: a Secret Key or access token anywhere in the URL
 * (MUST), and also an Access Key ID alone (the reference refuses it, except
 * in the control API's paths), and the control token.
 */
export function hasCredentialsInUrl(url: string, policy: UrlCredentialPolicy = {}): boolean {
  const decoded = decodeUrlBytes(url);
  const shape = policy.accessKeyIdsAllowed === true ? SECRET_SHAPE : CREDENTIAL_SHAPE;
  if (decoded.includes(`${KEY_PREFIX}_`) && shape.test(decoded)) return true;
  // Basic credentials (base64 of `id:secret`) pasted into a URL: long base64 runs only.
  // The run may begin with path segments (`/` is base64 too): any offset is looked at.
  for (const run of decoded.match(LONG_BASE64) ?? [])
    if (base64RunHoldsCredential(run)) return true;
  const { controlToken } = policy;
  if (controlToken !== undefined && controlToken.length >= 8 && decoded.includes(controlToken)) {
    return true;
  }
  const q = url.indexOf('?');
  if (q === -1) return false;
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = decodeUrlBytes(eq === -1 ? pair : pair.slice(0, eq)).toLowerCase();
    if (CREDENTIAL_PARAMS.has(name)) return true;
  }
  return false;
}

/** Whether the request targets the control API: its prefix as a whole path segment. */
export function isControlPath(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

/** §7 400 `credentials_in_url`, with its remedy: the header, and a roll of the key. */
export function credentialsInUrlProblem(): ApiProblem {
  return new ApiProblem(
    'credentials_in_url',
    'Credentials were sent in the URL. Send them in the Authorization header only, ' +
      'and roll the key: URLs end up in logs.',
  );
}
