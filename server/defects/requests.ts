import { KEY_PREFIX } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { OrderBody } from '../validation/order-body.js';
import type { HasDefect } from './catalogue.js';

const TOKEN_VALUE = new RegExp(`${KEY_PREFIX}_at_`);
const SECRET_VALUE = new RegExp(`${KEY_PREFIX}_(?:test|live)_sk_`);

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * `query-token-accepted`, `query-secret-accepted`: the URL as a defective
 * credentials check sees it, with the query parameters it overlooks taken out
 * (access tokens, or Secret Keys, under any name).
 */
export function urlOverlookingCredentials(url: string, hasDefect: HasDefect): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const kept = url
    .slice(q + 1)
    .split('&')
    .filter((pair) => {
      const [name = '', value = ''] = pair.split('=').map(decoded);
      if (hasDefect('query-token-accepted') && (name === 'access_token' || TOKEN_VALUE.test(value)))
        return false;
      if (hasDefect('query-secret-accepted') && SECRET_VALUE.test(value)) return false;
      return true;
    });
  return kept.length > 0 ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}

const ORDER_FIELDS = new Set(['external_id', 'items', 'shipping_address']);
const LENIENCIES = [
  'order-external-id-optional',
  'order-postal-code-optional',
  'order-unknown-field-ignored',
] as const;
let generated = 0;

/**
 * `order-external-id-optional`, `order-postal-code-optional`,
 * `order-unknown-field-ignored`: an order body patched up before validation,
 * as a lenient server would, so that what should be refused gets through.
 */
export function lenientOrderBody(body: unknown, hasDefect: HasDefect): unknown {
  if (!LENIENCIES.some((name) => hasDefect(name))) return body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const patched: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if (hasDefect('order-external-id-optional') && !('external_id' in patched)) {
    generated += 1;
    patched.external_id = `generated-${Date.now()}-${generated}`;
  }
  const address = patched.shipping_address;
  if (
    hasDefect('order-postal-code-optional') &&
    address !== null &&
    typeof address === 'object' &&
    !Array.isArray(address) &&
    !('postal_code' in address)
  ) {
    patched.shipping_address = { ...address, postal_code: '00000' };
  }
  if (hasDefect('order-unknown-field-ignored')) {
    for (const name of Object.keys(patched)) if (!ORDER_FIELDS.has(name)) delete patched[name];
  }
  return patched;
}

/** `order-zip4-refused`: a postal code check that knows only five-digit ZIP codes. */
export function refuseZipPlus4(input: OrderBody): void {
  if (!/^\d{5}-\d{4}$/.test(input.shipping_address.postal_code)) return;
  const detail = 'postal_code must be a five-digit ZIP code.';
  throw new ApiProblem('validation_failed', 'The request body is not valid; see errors.', {
    errors: [{ detail, pointer: '/shipping_address/postal_code' }],
  });
}
