import { type Condition, check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { issuedToken, requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

/** A token issued, as data: a 2xx with a non-empty access_token. */
const ISSUED: Condition = {
  all: [
    { at: '/status', is: { between: [200, 299] } },
    { at: '/body/access_token', is: { nonEmpty: true } },
  ],
};

// Section 4, POST /oauth/token: Basic credentials, a form body, grant_type=client_credentials.
check('TOKEN-01', async (ctx) => {
  const key = await ctx.key();
  const res = await requestToken(ctx, key);
  ctx.expectTrue(res.status >= 200 && res.status < 300, {
    code: 'STATUS',
    pointer: '/status',
    expected: 'a 2xx answer',
    received: res.status,
    message: `a valid token request was answered HTTP ${res.status}`,
    exchange: res.exchange,
    must: ISSUED,
  });
  ctx.expectTrue(issuedToken(res) !== undefined, {
    code: 'SCHEMA',
    pointer: '/body/access_token',
    expected: 'an access token',
    received: '(none)',
    message: 'a valid token request issued no access_token',
    exchange: res.exchange,
    must: ISSUED,
  });
});

// Section 4 (the token request), RFC 6749 §5.1: a successful answer is 200 with an application/json body.
check('TOKEN-12', async (ctx) => {
  const key = await ctx.key();
  const res = await requestToken(ctx, key);
  ctx.expectStatus(res, ctx.dialect.operations.token.status);
  ctx.expectHeader(res, 'content-type', { mediaType: 'application/json' }, 'application/json');
});

// Section 4: the token request is a form (Content-Type: application/x-www-form-urlencoded);
// RFC 9110 §8.3.1 media types take parameters, and many clients add `charset=UTF-8`.
check('TOKEN-18', async (ctx) => {
  const key = await ctx.key();
  const res = await requestToken(ctx, key, {
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
  });
  ctx.expectStatus(res, ctx.dialect.operations.token.status);
  ctx.expectTrue(issuedToken(res) !== undefined, {
    code: 'SCHEMA',
    pointer: '/body/access_token',
    expected: 'an access token',
    received: '(none)',
    message: 'a form body with a charset parameter got no token',
    exchange: res.exchange,
  });
});
