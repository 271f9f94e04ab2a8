import {
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  orderBody,
  quoteBody,
} from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { sendReads } from '../support/every-read.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { endpointBody } from '../support/webhook-endpoints.js';
import { switchedTo, tokenRequest } from './service-state.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('SVC-01', async (ctx) => {
  // Section 7, 503 read_only: "Reads work." Every read of the endpoint table served before the
  // switch (the account, the catalog and a product, a quote, orders, one order by id and by
  // external id, its shipments and invoice, webhook endpoints and events, each list and one).
  const { key, reads } = await switchedTo(ctx, 'read_only', { reads: true });
  // The reads at once, judged in order.
  const answers = await sendReads(ctx, reads, { kind: 'key', key });
  for (const [i, { what, operation }] of reads.entries()) {
    const res = answers[i] as HttpResponse;
    if (!ctx.expectStatus(res, ctx.dialect.operations[operation].status))
      ctx.note(`${what} failed while read_only`);
  }
});

check('SVC-02', async (ctx) => {
  // Section 7, 503 read_only: "New orders and quotes are paused."
  const { key, catalog } = await switchedTo(ctx, 'read_only');
  const body = orderBody(ctx, catalog);
  ctx.expectProblem(await ctx.postOrder(key, body), { status: 503, code: 'read_only' });
  await expectNoOrder(ctx, key, body.external_id, 'a new order while read_only');
});

check('SVC-03', async (ctx) => {
  // Section 7, 503 read_only: "New orders and quotes are paused."
  const { key, catalog } = await switchedTo(ctx, 'read_only');
  ctx.expectProblem(await ctx.api(key).post(ctx.path('quotes'), quoteBody(ctx, catalog)), {
    status: 503,
    code: 'read_only',
  });
});

check('SVC-04', async (ctx) => {
  // Section 7 read_only pauses writes, not authentication; contract readings: token requests still work.
  const { key } = await switchedTo(ctx, 'read_only');
  const res = await tokenRequest(ctx, key);
  if (ctx.expectStatus(res, ctx.dialect.operations.token.status)) {
    ctx.expectTrue(
      typeof (res.json as { access_token?: unknown } | undefined)?.access_token === 'string',
      {
        code: 'SCHEMA',
        pointer: '/body/access_token',
        expected: 'an access token',
        received: '(missing)',
        message: 'the token request answered no access_token while read_only',
        exchange: res.exchange,
      },
    );
  }
});

check('SVC-05', async (ctx) => {
  // Contract section 2 readings: while read_only the reference pauses every other write too.
  const { key, orderId } = await switchedTo(ctx, 'read_only');
  const client = ctx.api(key);
  // The cancel and the endpoint (made with the dialect's method and body: the document shows
  // neither) at once.
  const [cancel, created] = await together(
    client.post(ctx.path('orderCancel', { id: orderId })),
    client.send({
      method: ctx.dialect.operations.webhookEndpointCreate.method,
      path: ctx.path('webhookEndpoints'),
      json: endpointBody(ctx, 'https://hooks.example.com/orders'),
    }),
  );
  ctx.expectProblem(cancel, { status: 503, code: 'read_only' });
  ctx.expectProblem(created, { status: 503, code: 'read_only' });
});
