import { parseBasic } from '../auth/basic.js';
import { KEY_PREFIX } from '../config/api.js';
import { hashSecret, secretMatches } from '../crypto/secret-hash.js';
import { defectsOf } from './defect.js';

const TOKEN_VALUE = new RegExp(`${KEY_PREFIX}_at_`);
const SECRET_VALUE = new RegExp(`${KEY_PREFIX}_(?:test|live)_sk_`);
const SECRETS = new RegExp(`${KEY_PREFIX}_(?:test|live)_sk_[0-9A-Za-z]{24,}`, 'g');

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

function secretDigest(secret: string | undefined): Buffer | undefined {
  return secret === undefined ? undefined : hashSecret(secret);
}

/** The URL as a defective credentials check sees it: the query parameters it overlooks taken out. */
function overlooking(url: string, overlooked: (name: string, value: string) => boolean): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const kept = url
    .slice(q + 1)
    .split('&')
    .filter((pair) => {
      const [name = '', value = ''] = pair.split('=').map(decoded);
      return !overlooked(name, value);
    });
  return kept.length > 0 ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}

/** §5 rules 4 and 6: credentials in URLs and bodies. */
export const URL_DEFECTS = defectsOf('URL', [
  {
    name: 'query-token-accepted',
    breaks: 'an access token in the query string is not refused as credentials_in_url',
    replaces: () => ({
      requestChecks: {
        urlHoldsCredentials: (holds) => (url) =>
          holds(
            overlooking(url, (name, value) => name === 'access_token' || TOKEN_VALUE.test(value)),
          ),
      },
    }),
  },
  {
    name: 'query-secret-accepted',
    breaks: 'a Secret Key in the query string is not refused as credentials_in_url',
    replaces: () => ({
      requestChecks: {
        urlHoldsCredentials: (holds) => (url) =>
          holds(overlooking(url, (_name, value) => SECRET_VALUE.test(value))),
      },
    }),
  },
  {
    name: 'secret-in-body-accepted',
    breaks: 'a Secret Key in the body of an API call is not refused',
    replaces: () => ({
      requestChecks: {
        bodyCredential: (held) => (body, request) =>
          request.routeOptions.config?.oauth === true ? held(body, request) : undefined,
      },
    }),
  },
  {
    name: 'only-own-secret-refused',
    breaks: "a body is refused only when it holds the sending key's own Secret Key",
    replaces: () => ({
      requestChecks: {
        // The secret compared with the sender's (the bearer token's key, or the Basic credentials of
        // a token request) instead of refused by its shape.
        bodyCredential: (held) => (body, request) => {
          const found = held(body, request);
          if (found !== 'secret_key') return found;
          const own =
            request.principal?.key.secretHash ??
            secretDigest(parseBasic(request.headers.authorization)?.secret);
          const sent = decoded(body).match(SECRETS) ?? [];
          return own !== undefined && sent.some((secret) => secretMatches(secret, own))
            ? found
            : undefined;
        },
      },
    }),
  },
]);
