import { KEY_PREFIX } from '../config/api.js';
import { base64RunHoldsCredential, LONG_BASE64 } from '../http/credentials-in-url.js';
import { ApiProblem } from '../problems/api-problem.js';

const SECRET_KEY_SHAPE = new RegExp(`${KEY_PREFIX}_(?:test|live)_sk_[0-9A-Za-z]{24,}`);
const ACCESS_TOKEN_SHAPE = new RegExp(`${KEY_PREFIX}_at_[0-9A-Za-z]{24,}`);

const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})/g;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;

function fromCode(_: string, hex: string): string {
  return String.fromCharCode(Number.parseInt(hex, 16));
}

function shaped(text: string): boolean {
  return text.includes('_sk_') && SECRET_KEY_SHAPE.test(text);
}

/** The text with JSON (`\u005f`, `\/`) and form (`%5F`, `+`) escapes undone, twice (`%5Cu005f`). */
function unescaped(text: string): string {
  const once = text
    .replace(JSON_ESCAPE, fromCode)
    .replaceAll('\\/', '/')
    .replaceAll('+', ' ')
    .replace(PERCENT_ESCAPE, fromCode);
  return once.replace(JSON_ESCAPE, fromCode).replace(PERCENT_ESCAPE, fromCode);
}

/**
 * True when the text holds anything shaped like a Secret Key (§2 API key),
 * as sent or written with escapes: JSON `\u005f`, a form's `%5F` or `+`.
 */
export function holdsSecretKey(text: string): boolean {
  if (shaped(text)) return true;
  if (!text.includes('\\') && !text.includes('%')) return false;
  return shaped(unescaped(text));
}

/** A credential a request body must not carry (house rules: none ever comes back in an answer). */
export type BodyCredential = 'secret_key' | 'access_token' | 'control_token';

/**
 * The credential a request body holds, if any: a Secret Key (§5.4), an
 * access token, or the control token, as sent, escaped (JSON, form) or
 * inside base64 (Basic credentials pasted into a body). Such a body is
 * refused before anything is stored, so no answer can ever echo it.
 */
export function credentialInBody(
  text: string,
  controlToken: string | undefined,
): BodyCredential | undefined {
  const plain = text.includes('\\') || text.includes('%') ? unescaped(text) : text;
  if (holdsSecretKey(text) || shaped(plain)) return 'secret_key';
  if (plain.includes('_at_') && ACCESS_TOKEN_SHAPE.test(plain)) return 'access_token';
  if (controlToken !== undefined && plain.includes(controlToken)) return 'control_token';
  for (const run of plain.match(LONG_BASE64) ?? []) {
    if (base64RunHoldsCredential(run)) return 'secret_key';
  }
  return undefined;
}

/**
 * §5.4: the Secret Key is sent only in the Basic header of the token request;
 * one in a request body is refused. Contract §2: 422 `validation_failed`,
 * nothing issued or placed. The secret is never echoed back. An access token
 * or the control token in a body is refused the same way.
 */
export function secretInBodyProblem(pointer = '', kind: BodyCredential = 'secret_key'): ApiProblem {
  if (kind !== 'secret_key') {
    const what = kind === 'access_token' ? 'An access token' : 'A credential';
    return new ApiProblem(
      'validation_failed',
      `The request body holds ${what.toLowerCase()}. Credentials travel only in request ` +
        'headers (an access token in Authorization: Bearer); treat this one as leaked.',
      { errors: [{ detail: `${what} must not be sent in a request body.`, pointer }] },
    );
  }
  return new ApiProblem(
    'validation_failed',
    'The request body holds a Secret Key. A Secret Key travels only in the Basic ' +
      'Authorization header of POST /oauth/token; roll this key, since it may have leaked.',
    { errors: [{ detail: 'A Secret Key must not be sent in a request body.', pointer }] },
  );
}
