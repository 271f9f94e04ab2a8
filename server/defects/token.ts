import { askedScopes } from '../auth/token-grant.js';
import { TOKEN_CHARS } from '../config/api.js';
import { secretMatches } from '../crypto/secret-hash.js';
import { randomBase62 } from '../domain/ids.js';
import { parseFormBody } from '../http/body.js';
import { defectsOf, successOf } from './defect.js';

/** `token-shape-without-at`: the token shape of a server that forgot the `<prefix>_at_` of §2. */
const DEFECT_TOKEN_SHAPE = /^tok_[0-9A-Za-z]{24,200}$/;

/** §4 POST /oauth/token and the §2 access token response (§5.4–§5.7). */
export const TOKEN_DEFECTS = defectsOf('TOKEN', [
  {
    name: 'token-expires-in-3700',
    breaks: 'the token response says expires_in 3700',
    replaces: () => ({
      answer: (answer) => {
        if (successOf(answer, 'POST', '/oauth/token'))
          answer.body = { ...answer.body, expires_in: 3700 };
      },
    }),
  },
  {
    name: 'token-type-lowercase',
    breaks: 'the token response says token_type "bearer"',
    replaces: () => ({
      answer: (answer) => {
        if (successOf(answer, 'POST', '/oauth/token'))
          answer.body = { ...answer.body, token_type: 'bearer' };
      },
    }),
  },
  {
    name: 'token-default-scopes-partial',
    breaks: 'a token asked for no scope lacks webhooks:manage',
    replaces: () => ({
      credentials: {
        grantedScopes: (granted) => (key, requested) =>
          askedScopes(requested).length === 0
            ? key.scopes.filter((scope) => scope !== 'webhooks:manage')
            : granted(key, requested),
      },
    }),
  },
  {
    name: 'token-scope-subset-ignored',
    breaks: 'a token asked for a subset of scopes gets all of the key',
    replaces: () => ({
      credentials: {
        grantedScopes: (granted) => (key, requested) => {
          const scopes = granted(key, requested);
          return askedScopes(requested).length > 0 ? [...key.scopes] : scopes;
        },
      },
    }),
  },
  {
    name: 'token-scope-beyond-key-granted',
    breaks: 'a scope request beyond the key gets a token of the scopes held',
    replaces: () => ({
      credentials: {
        grantedScopes: (granted) => (key, requested) => {
          const asked = askedScopes(requested);
          if (asked.length === 0) return granted(key, requested);
          const held: readonly string[] = key.scopes;
          return [...new Set(asked.filter((scope) => held.includes(scope)))];
        },
      },
    }),
  },
  {
    name: 'token-grant-type-unchecked',
    breaks: 'a token request without grant_type=client_credentials gets a token',
    replaces: () => ({ credentials: { checkGrantType: () => () => undefined } }),
  },
  {
    name: 'secret-in-token-form-accepted',
    breaks: 'a Secret Key in the token request form is ignored, a token issued',
    replaces: () => ({
      requestChecks: {
        bodyCredential: (held) => (body, request) =>
          request.routeOptions.config?.oauth === true ? undefined : held(body, request),
      },
      credentials: { tokenForm: () => parseFormBody },
    }),
  },
  {
    name: 'token-form-body-ignored',
    breaks:
      'the token endpoint reads only JSON bodies: a form body is refused for want of grant_type',
    replaces: () => ({
      credentials: {
        // The fields as a server that reads only JSON sees them: a form body (the only kind §4 has) gives none.
        tokenForm: () => (request) => {
          const body = request.body;
          const fields = new URLSearchParams();
          if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) {
            for (const [name, value] of Object.entries(body)) {
              if (typeof value === 'string') fields.set(name, value);
            }
          }
          return fields;
        },
      },
    }),
  },
  {
    name: 'token-scope-as-list',
    breaks: 'the token response gives scope as a JSON list, not a string',
    replaces: () => ({
      answer: (answer) => {
        const { scope } = answer.body;
        if (successOf(answer, 'POST', '/oauth/token') && typeof scope === 'string')
          answer.body = { ...answer.body, scope: scope.split(' ').filter((s) => s !== '') };
      },
    }),
  },
  {
    name: 'token-shape-without-at',
    breaks: 'access tokens are shaped tok_<chars>, not <prefix>_at_<chars>',
    replaces: () => ({
      credentials: {
        newToken: () => () => `tok_${randomBase62(TOKEN_CHARS)}`,
        tokenShapeRefusal: (refusal) => (token) =>
          DEFECT_TOKEN_SHAPE.test(token) ? undefined : refusal(token),
      },
    }),
  },
  {
    name: 'key-found-by-secret',
    breaks:
      "a token is issued for the account's key whose Secret Key is sent, whatever Access Key ID is named",
    replaces: ({ ctx, wide }) => ({
      credentials: {
        // The Access Key ID only finds the account; the secret picks the key among its keys.
        clientKey: (find) => async (credentials) => {
          const named = await find(credentials);
          if (!named || secretMatches(credentials.secret, named.secretHash)) return named;
          for (const id of await wide.otherActiveKeyIds(named.accountId, named.id)) {
            const other = await ctx.store.keys.get(id);
            if (other && secretMatches(credentials.secret, other.secretHash)) return other;
          }
          return named;
        },
      },
    }),
  },
  {
    name: 'wrong-secret-accepted',
    breaks: 'a known Access Key ID gets a token whatever the Secret Key',
    replaces: () => ({
      credentials: {
        secretAccepted: (accepted) => (key, secret) => accepted(key, secret) || key !== undefined,
      },
    }),
  },
]);
