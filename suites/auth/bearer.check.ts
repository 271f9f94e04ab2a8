import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  idIn,
  linesOf,
  METHOD_NOT_SHOWN,
  newIdempotencyKey,
  type OperationName,
  quoteBodyOf,
  type RequestSpec,
  uniqueExternalId,
} from '../../lib/check/index.js';
import { forgedToken } from '../arbitraries/forgedToken.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import { endpointBody, endpointDialectGap } from '../support/webhook-endpoints.js';

checksUseOwnAccounts();

/** One call of the endpoint table (section 4), sent without its authentication. */
interface ProtectedCall {
  operation: OperationName;
  spec: Omit<RequestSpec, 'auth'>;
}

/**
 * Every call of the endpoint table of section 4 but the token request, each
 * otherwise a valid request, so only the missing or bad credential can be why
 * it is refused. An order and a quote are made first (with the key, at once)
 * so that the calls on one order or quote name objects that exist; where the
 * key cannot make them (a live partner key places nothing, a key may lack the
 * scope) and for webhook endpoints and events (their creation is a limit of
 * its own), made-up ids: without a credential no id may matter.
 */
async function protectedCalls(ctx: CheckContext): Promise<ProtectedCall[]> {
  const key = await ctx.key();
  const placedBody = await ctx.orderBody({ externalId: uniqueExternalId('ct-auth') });
  const newBody = await ctx.orderBody({ externalId: uniqueExternalId('ct-auth') });
  const made = (stem: string) => `${stem}_${ctx.faker.string.alphanumeric(20)}`;
  const [orderId, quoteId] = await together(
    ctx.placeOrder(key, placedBody).then(
      (order) => order.id,
      () => undefined,
    ),
    ctx
      .api(key)
      .post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, placedBody))
      .then(
        (res) => (res.status < 300 ? idIn(ctx.dialect, 'quote', res.json) : undefined),
        () => undefined,
      ),
  );
  if (orderId === undefined || quoteId === undefined)
    ctx.note('the key made no order or no quote to name: the calls on one name made-up ids');
  const id = orderId ?? made('ord');
  const externalId = orderId === undefined ? made('ext') : String(placedBody.external_id);
  const sku = linesOf(ctx.dialect.orderBody, placedBody)[0]?.sku ?? made('sku');
  const { operations } = ctx.dialect;
  const call = (
    operation: OperationName,
    path: string,
    extra: Partial<Omit<RequestSpec, 'auth' | 'method' | 'path'>> = {},
  ): ProtectedCall => ({
    operation,
    spec: { method: operations[operation].method, path, ...extra },
  });
  return [
    call('account', ctx.path('account')),
    call('catalogProducts', ctx.path('catalogProducts')),
    call('catalogProduct', ctx.path('catalogProduct', { sku })),
    call('quoteCreate', ctx.path('quotes'), { json: quoteBodyOf(ctx.dialect, newBody) }),
    call('quoteRead', ctx.path('quote', { id: quoteId ?? made('quo') })),
    call('orderList', ctx.path('orders')),
    call('orderRead', ctx.path('order', { id })),
    call('orderByExternalId', ctx.path('orderByExternalId', { external_id: externalId })),
    call('shipments', ctx.path('shipments', { id })),
    call('invoice', ctx.path('invoice', { id })),
    call('orderCreate', ctx.path('orders'), {
      json: newBody,
      headers: { 'idempotency-key': newIdempotencyKey() },
    }),
    call('orderCancel', ctx.path('orderCancel', { id })),
    call('webhookEndpointCreate', ctx.path('webhookEndpoints'), {
      json: endpointBody(ctx, 'https://hooks.example.com/orders'),
    }),
    call('webhookEndpointList', ctx.path('webhookEndpoints')),
    call('webhookEndpointRead', ctx.path('webhookEndpoint', { id: made('we') })),
    call('webhookEndpointDelete', ctx.path('webhookEndpoint', { id: made('we') })),
    call('eventList', ctx.path('events')),
    call('eventRead', ctx.path('event', { id: made('evt') })),
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

// Section 5, rule 1: every call except the token request carries Authorization: Bearer; without it
// 401 unauthorized. Every endpoint of section 4's table: a server that authenticates route by route
// and forgot one serves it, or answers it as if it had looked the object up first.
check('AUTH-02', async (ctx) => {
  const calls = await protectedCalls(ctx);
  // Each stands alone: all at once, judged in the table's order.
  const answers = await allAtOnce(calls, ({ spec }) =>
    ctx.send({ ...spec, auth: { kind: 'none' } }),
  );
  calls.forEach(({ operation, spec }, i) => {
    const res = answers[i] as HttpResponse;
    // Where the document shows no method (webhook endpoints, events), a 404 or 405 to the profile's
    // says only that the target takes another: nothing about credentials.
    if (
      res.status !== 401 &&
      METHOD_NOT_SHOWN.includes(operation) &&
      endpointDialectGap(ctx, res, operation, `${spec.method} ${label(res)}`)
    ) {
      ctx.note(
        `${spec.method} ${label(res)}: answered ${res.status}; the profile's method may not be the target's`,
      );
      return;
    }
    if (!ctx.expectProblem(res, { status: 401, code: 'unauthorized' })) {
      ctx.note(`${spec.method} ${label(res)} without Authorization was not 401 unauthorized`);
    }
  });
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
