import { KEY_PREFIX } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';

const SECRET_KEY_SHAPE = new RegExp(`${KEY_PREFIX}_(?:test|live)_sk_[0-9A-Za-z]{24,}`);

const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})/g;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;

function fromCode(_: string, hex: string): string {
  return String.fromCharCode(Number.parseInt(hex, 16));
}

function shaped(text: string): boolean {
  return text.includes('_sk_') && SECRET_KEY_SHAPE.test(text);
}

/**
 * True when the text holds anything shaped like a Secret Key (§2 API key),
 * as sent or written with escapes: JSON `\u005f`, a form's `%5F` or `+`.
 */
export function holdsSecretKey(text: string): boolean {
  if (shaped(text)) return true;
  if (!text.includes('\\') && !text.includes('%')) return false;
  const unescaped = text
    .replace(JSON_ESCAPE, fromCode)
    .replaceAll('\\/', '/')
    .replaceAll('+', ' ')
    .replace(PERCENT_ESCAPE, fromCode);
  // Escapes of escapes (`%5Cu005f`): one more round.
  return shaped(unescaped) || shaped(unescaped.replace(JSON_ESCAPE, fromCode));
}

/**
 * §5.4: the Secret Key is sent only in the Basic header of the token request;
 * one in a request body is refused. Contract §2: 422 `validation_failed`,
 * nothing issued or placed. The secret is never echoed back.
 */
export function secretInBodyProblem(pointer = ''): ApiProblem {
  return new ApiProblem(
    'validation_failed',
    'The request body holds a Secret Key. A Secret Key travels only in the Basic ' +
      'Authorization header of POST /oauth/token; roll this key, since it may have leaked.',
    { errors: [{ detail: 'A Secret Key must not be sent in a request body.', pointer }] },
  );
}
