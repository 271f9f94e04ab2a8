import { invalidToken, tokenExpired, unauthorized } from '../auth/bearer-problems.js';
import { API_BASE } from '../config/api.js';
import { hashSecret } from '../crypto/secret-hash.js';
import { ApiProblem } from '../problems/api-problem.js';
import { defectsOf } from './defect.js';

const TOKEN_SCHEME = /^token +([^ ]+) *$/i;

/** §5 rules 1–3: bearer tokens and their lifetime. */
export const AUTH_DEFECTS = defectsOf('AUTH', [
  {
    name: 'token-lives-3700s',
    breaks: 'a token is served until it is 3700 seconds old',
    replaces: () => ({
      credentials: {
        tokenAgeRefusal: () => (ageMs) => (ageMs > 3_700_000 ? tokenExpired() : undefined),
      },
    }),
  },
  {
    name: 'token-expires-at-3500s',
    breaks: 'a token expires when 3500 seconds old',
    replaces: () => ({
      credentials: {
        tokenAgeRefusal: () => (ageMs) => (ageMs > 3_500_000 ? tokenExpired() : undefined),
      },
    }),
  },
  {
    name: 'token-expired-as-invalid',
    breaks: 'an expired token is answered 401 invalid_token, not token_expired',
    replaces: () => ({
      credentials: {
        tokenAgeRefusal: (refusal) => (ageMs) => (refusal(ageMs) ? invalidToken() : undefined),
      },
    }),
  },
  {
    name: 'missing-bearer-as-invalid-token',
    breaks: 'a call without Authorization is answered 401 invalid_token',
    replaces: () => ({
      credentials: {
        bearerToken: (bearerToken) => (header) => {
          if (header === undefined) throw invalidToken();
          return bearerToken(header);
        },
      },
    }),
  },
  {
    name: 'quote-read-before-auth',
    breaks:
      'GET /quotes/{id} without Authorization answers 404 not_found: it looks the quote up first',
    replaces: () => ({
      // A hook before the route's own bearer gate, as a route that reads its object first would.
      beforeHandler: (app) => {
        app.addHook('onRequest', async (request) => {
          if (
            request.method === 'GET' &&
            request.routeOptions.url === `${API_BASE}/quotes/:id` &&
            request.headers.authorization === undefined
          )
            throw new ApiProblem('not_found', 'No quote with this id in this account and mode.');
        });
      },
    }),
  },
  {
    name: 'token-scheme-accepted',
    breaks: 'Authorization: Token <token> is served like Bearer',
    replaces: () => ({
      credentials: {
        bearerToken: (bearerToken) => (header) =>
          TOKEN_SCHEME.exec(header ?? '')?.[1] ?? bearerToken(header),
      },
    }),
  },
  {
    name: 'malformed-token-as-unauthorized',
    breaks: 'a token not of the token shape is answered 401 unauthorized',
    replaces: () => ({
      credentials: {
        tokenShapeRefusal: (refusal) => (token) => (refusal(token) ? unauthorized() : undefined),
      },
    }),
  },
  {
    name: 'bearer-scheme-hashed',
    breaks: 'a valid token is answered 401 invalid_token: the lookup hashes "Bearer <token>"',
    replaces: () => ({
      credentials: { tokenDigest: () => (token) => hashSecret(`Bearer ${token}`) },
    }),
  },
  {
    name: 'token-age-from-first-token',
    breaks: "a key's new tokens are aged from its first token, so they expire together",
    replaces: ({ wide }) => ({
      credentials: {
        storeToken: (storeToken) => async (token, key, scopes, now) =>
          storeToken(token, key, scopes, (await wide.firstTokenIssuedAt(key.id)) ?? now),
      },
    }),
  },
]);
