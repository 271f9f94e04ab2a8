import type { CredentialBehaviour } from '../auth/credential-behaviour.js';
import { correctCredentials } from '../auth/credential-behaviour.js';
import { askedScopes } from '../auth/token-grant.js';
import { TOKEN_CHARS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { randomBase62 } from '../domain/ids.js';
import { parseFormBody } from '../http/body.js';
import { matchesReplacedSecret } from './key-memory.js';
import { firstTokenIssuedAt, jsonOnlyForm } from './tokens.js';

const correct = correctCredentials;

/**
 * The token request's decisions (auth/credential-behaviour.ts) bent by the
 * §5 token and §3 key defects; part of `ctx.hooks.credentials` when defects
 * are on (defects/credentials.ts).
 */
export function defectiveTokenRequest(ctx: AppContext): Partial<CredentialBehaviour> {
  const { hasDefect } = ctx;
  return {
    tokenForm: (request) =>
      hasDefect('token-form-body-ignored')
        ? jsonOnlyForm(request)
        : hasDefect('secret-in-token-form-accepted')
          ? parseFormBody(request)
          : correct.tokenForm(request),
    secretAccepted: (key, secret) =>
      correct.secretAccepted(key, secret) ||
      (key !== undefined &&
        (hasDefect('wrong-secret-accepted') ||
          (hasDefect('roll-keeps-old-secret') && matchesReplacedSecret(ctx, key.id, secret)))),
    keyIssuesTokens: (key) =>
      hasDefect('revoked-key-issues-tokens') || correct.keyIssuesTokens(key),
    checkGrantType: (grantType) => {
      if (!hasDefect('token-grant-type-unchecked')) correct.checkGrantType(grantType);
    },
    grantedScopes: (key, requested) => {
      const asked = askedScopes(requested);
      if (asked.length === 0 && hasDefect('token-default-scopes-partial')) {
        return key.scopes.filter((scope) => scope !== 'webhooks:manage');
      }
      if (asked.length > 0 && hasDefect('token-scope-beyond-key-granted')) {
        return [
          ...new Set(asked.filter((scope) => (key.scopes as readonly string[]).includes(scope))),
        ];
      }
      const granted = correct.grantedScopes(key, requested);
      return asked.length > 0 && hasDefect('token-scope-subset-ignored')
        ? [...key.scopes]
        : granted;
    },
    newToken: () =>
      hasDefect('token-shape-without-at') ? `tok_${randomBase62(TOKEN_CHARS)}` : correct.newToken(),
    issuedAt: (key, now) =>
      hasDefect('token-age-from-first-token') ? firstTokenIssuedAt(ctx, key.id, now) : now,
  };
}
