import {
  check,
  checksUseOwnAccounts,
  newIdempotencyKey,
  orderBody,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoOrders } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ORDER-01', async (ctx) => {
  // Section 4, POST /orders: "Header Content-Type: application/json. Otherwise 415 unsupported_media_type."
  const { key, catalog } = await ordering(ctx);
  const variants: { name: string; contentType: string | null; encode: (b: object) => string }[] = [
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
  // Bodies drawn in order, sent at once, then looked up at once: judged in order.
  const sent = variants.map((variant) => ({ variant, body: orderBody(ctx, catalog) }));
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
