import {
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  idIn,
  newIdempotencyKey,
  orderBody,
  quoteBody,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoOrders } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import {
  countEndpoints,
  deleteEndpoint,
  endpointBody,
  endpointDialectGap,
} from '../support/webhook-endpoints.js';

/**
 * A JSON body sent as something else (section 4: "Bodies are JSON
 * (Content-Type: application/json) except the token request"): as JSON text
 * labelled text/plain, as a form, and with no Content-Type at all.
 */
const NOT_JSON: { name: string; contentType: string | null; encode: (b: object) => string }[] = [
  { name: 'text/plain', contentType: 'text/plain', encode: (b) => JSON.stringify(b) },
  {
    name: 'a form',
    contentType: 'application/x-www-form-urlencoded',
    encode: (b) =>
      new URLSearchParams(
        Object.entries(b).map(([k, v]): [string, string] => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ]),
      ).toString(),
  },
  { name: 'no Content-Type', contentType: null, encode: (b) => JSON.stringify(b) },
];

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-01', async (ctx) => {
  // Section 4, POST /orders: "Header Content-Type: application/json. Otherwise 415 unsupported_media_type."
  const { key, catalog } = await ordering(ctx);
  // Bodies drawn in order, sent at once, then looked up at once: judged in order.
  const sent = NOT_JSON.map((variant) => ({ variant, body: orderBody(ctx, catalog) }));
  const answers = await allAtOnce(sent, ({ variant, body }) =>
    ctx.api(key).send({
      method: 'POST',
      path: ctx.path('orders'),
      body: variant.encode(body),
      headers: {
        'idempotency-key': newIdempotencyKey(),
        ...(variant.contentType === null ? {} : { 'content-type': variant.contentType }),
      },
    }),
  );
  for (const res of answers)
    ctx.expectProblem(res, { status: 415, code: 'unsupported_media_type' });
  await expectNoOrders(
    ctx,
    sent.map(({ variant, body }) => ({
      key,
      externalId: body.external_id,
      after: `an order body sent as ${variant.name}`,
    })),
  );
});

check('ORDER-02', async (ctx) => {
  // Section 4 requires application/json; RFC 8259 section 11 defines no charset parameter and
  // says adding one has no effect on compliant recipients, so it must not turn a JSON body away.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(key, body, {
    rawBody: JSON.stringify(body),
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
  expectSuccess(ctx, res, 'an order sent as application/json; charset=utf-8');
});

check('ORDER-27', async (ctx) => {
  // Section 4: "Bodies are JSON (Content-Type: application/json) except the token request";
  // section 7: 415 unsupported_media_type, "Body not sent as JSON". Every endpoint that takes a
  // body, not POST /orders alone (ORDER-01's): POST /quotes and the webhook endpoint creation.
  const { key, catalog } = await ordering(ctx);
  const client = ctx.api(key);
  const create = ctx.dialect.operations.webhookEndpointCreate;
  // Endpoints there before (a partner sandbox may have some): none may be added.
  const before = await countEndpoints(ctx, key);
  const quotes = NOT_JSON.map((variant) => ({ variant, body: quoteBody(ctx, catalog) }));
  const hooks = NOT_JSON.map((variant) => ({
    variant,
    body: endpointBody(ctx, `https://${ctx.faker.internet.domainName()}/hooks/orders`),
  }));
  const send = (method: string, path: string, variant: (typeof NOT_JSON)[number], body: object) =>
    client.send({
      method,
      path,
      body: variant.encode(body),
      headers: variant.contentType === null ? {} : { 'content-type': variant.contentType },
    });
  const [quoteAnswers, hookAnswers] = await Promise.all([
    allAtOnce(quotes, ({ variant, body }) => send('POST', ctx.path('quotes'), variant, body)),
    allAtOnce(hooks, ({ variant, body }) =>
      send(create.method, ctx.path('webhookEndpoints'), variant, body),
    ),
  ]);
  for (const res of quoteAnswers)
    ctx.expectProblem(res, { status: 415, code: 'unsupported_media_type' });
  // A webhook endpoint the target took anyway is deleted as the check ends.
  for (const res of hookAnswers) {
    const id = res.status < 300 ? idIn(ctx.dialect, 'webhookEndpoint', res.json) : undefined;
    if (id !== undefined) ctx.onCleanup(async () => void (await deleteEndpoint(ctx, key, id)));
  }
  // The method of the creation is not shown (section 6): a 404 or 405 to the profile's says only that.
  const taken = hookAnswers.filter((res) => !unknownOperation(ctx, res));
  if (taken.length < hookAnswers.length)
    ctx.note("the webhook endpoint creation is not tried: not the target's method and path");
  for (const res of taken) ctx.expectProblem(res, { status: 415, code: 'unsupported_media_type' });
  if (taken.length === 0 || typeof before !== 'number') return;
  const after = await countEndpoints(ctx, key);
  if (typeof after === 'number')
    ctx.expectEqual(
      `/body${ctx.dialect.list.items}`,
      before,
      after,
      'the webhook endpoints after bodies not sent as JSON (none may be added)',
    );
});

/** A 404/405 to the profile's method and path of the creation: a dialect gap, not an answer. */
function unknownOperation(
  ctx: Parameters<typeof endpointDialectGap>[0],
  res: HttpResponse,
): boolean {
  return (
    (res.status === 404 || res.status === 405) &&
    endpointDialectGap(ctx, res, 'webhookEndpointCreate', 'creating an endpoint') !== undefined
  );
}
