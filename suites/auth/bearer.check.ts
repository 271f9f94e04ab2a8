import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  newIdempotencyKey,
  type RequestSpec,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { forgedToken } from '../arbitraries/forgedToken.js';

checksUseOwnAccounts();

/**
 * Calls of every kind the scope table lists, without their authentication:
 * a read of the account, of orders and of the catalog, and a valid order.
 * Each is otherwise a valid request, so only the missing or bad credential
 * can be why it is refused.
 */
async function protectedCalls(ctx: CheckContext): Promise<Omit<RequestSpec, 'auth'>[]> {
  const order = await ctx.orderBody({ externalId: uniqueExternalId('ct-auth') });
  return [
    { method: 'GET', path: ctx.path('account') },
    { method: 'GET', path: ctx.path('orders') },
    { method: 'GET', path: ctx.path('catalogProducts') },
    {
      method: 'POST',
      path: ctx.path('orders'),
      json: order,
      headers: { 'idempotency-key': newIdempotencyKey() },
    },
  ];
}

function label(res: HttpResponse): string {
  return res.requestPath.split('?')[0] ?? res.requestPath;
}

// Section 5: a key is exchanged for a bearer token, and the token is sent on every other request.
check('AUTH-01', async (ctx) => {
  const key = await ctx.key();
  const token = await ctx.token(key);
  const res = await ctx.send({
    method: 'GET',
    path: ctx.path('account'),
    auth: { kind: 'bearer', token },
  });
  ctx.expectStatus(res, ctx.dialect.operations.account.status);
});

// Section 5, rule 1: every call except the token request carries Authorization: Bearer; without it 401 unauthorized.
check('AUTH-02', async (ctx) => {
  for (const spec of await protectedCalls(ctx)) {
    const res = await ctx.send({ ...spec, auth: { kind: 'none' } });
    if (!ctx.expectProblem(res, { status: 401, code: 'unauthorized' })) {
      ctx.note(`${spec.method} ${label(res)} without Authorization was not 401 unauthorized`);
    }
  }
});

// Section 5, rule 1 and section 7 (401 unauthorized: "No Authorization: Bearer header"): another
// scheme, or a bare token without a scheme, is not a Bearer credential.
check('AUTH-03', async (ctx) => {
  const key = await ctx.key();
  const token = await ctx.token(key);
  const wrong: { what: string; header: string }[] = [
    {
      what: 'Basic credentials',
      header: `Basic ${Buffer.from('partner:not-a-secret').toString('base64')}`,
    },
    { what: 'a token under the scheme "Token"', header: `Token ${token}` },
    { what: 'a bare token without a scheme', header: token },
  ];
  for (const { what, header } of wrong) {
    const res = await ctx.send({
      method: 'GET',
      path: ctx.path('account'),
      auth: { kind: 'none' },
      headers: { authorization: header },
    });
    if (!ctx.expectProblem(res, { status: 401, code: 'unauthorized' })) {
      ctx.note(`Authorization with ${what} was not answered 401 unauthorized`);
    }
  }
});

// Section 5, rule 3: an unknown token gets 401 invalid_token.
check('AUTH-04', async (ctx) => {
  const path = ctx.path('account');
  // Runs are independent (no key, no state): they go out several at a time.
  await ctx.propertyInLanes(
    forgedToken(ctx.dialect.keyPrefix),
    async () => undefined,
    async (token) => {
      const res = await ctx.send({ method: 'GET', path, auth: { kind: 'bearer', token } });
      return ctx.expectProblem(res, { status: 401, code: 'invalid_token' });
    },
    // Unknown tokens belong to no key, so no key's rate limit bounds them: the run's full count.
    { numRuns: ctx.config.numRuns },
  );
});

// Section 5, rule 1 (`Authorization: Bearer`), RFC 9110 §11.1: the scheme name is case-insensitive.
check('AUTH-11', async (ctx) => {
  const token = await ctx.token(await ctx.key());
  for (const scheme of ['bearer', 'BEARER']) {
    const res = await ctx.send({
      method: 'GET',
      path: ctx.path('account'),
      auth: { kind: 'none' },
      headers: { authorization: `${scheme} ${token}` },
    });
    if (!ctx.expectStatus(res, ctx.dialect.operations.account.status))
      ctx.note(`the scheme written "${scheme}" was refused`);
  }
});
