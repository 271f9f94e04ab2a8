import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

// Section 4 (the token response), RFC 6749 §5.1: tokens are sent with `Cache-Control: no-store`.
check('TOKEN-13', async (ctx) => {
  const res = await requestToken(ctx, await ctx.key());
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  ctx.expectHeader(res, 'cache-control', { directive: 'no-store' }, 'a value with no-store');
});

// Section 4 (the token response), RFC 6749 §5.1: and `Pragma: no-cache` for HTTP/1.0 caches.
check('TOKEN-14', async (ctx) => {
  const res = await requestToken(ctx, await ctx.key());
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  ctx.expectHeader(res, 'pragma', { directive: 'no-cache' }, 'no-cache');
});

// Section 4 (the token response is the object of section 2), RFC 6749 §4.4.3: no refresh token.
check('TOKEN-15', async (ctx) => {
  const res = await requestToken(ctx, await ctx.key());
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  const body = res.json;
  ctx.expectTrue(!(body !== null && typeof body === 'object' && 'refresh_token' in body), {
    code: 'VALUE',
    pointer: '/body/refresh_token',
    expected: '(absent)',
    received: '(a refresh token, not shown)',
    message: 'a client credentials token response must not carry a refresh_token',
    exchange: res.exchange,
  });
});
