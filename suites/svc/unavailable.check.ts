import { check, type HttpResponse, orderBody, quoteBody } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { backToNormal, switchedTo, tokenRequest } from './service-state.js';

check('SVC-06', async (ctx) => {
  // Section 7: "503 api_unavailable: API switched off for maintenance. Nothing charged." Contract
  // section 3: to everything: every read of the endpoint table served before the switch, the writes
  // and the token request.
  const { account, key, catalog, orderId, reads } = await switchedTo(ctx, 'unavailable', {
    reads: true,
  });
  const client = ctx.api(key);
  const body = orderBody(ctx, catalog);
  const calls: (readonly [string, () => Promise<HttpResponse>])[] = [
    ...reads.map(({ what, path }) => [`${what} (GET)`, () => client.get(path)] as const),
    ['POST /orders', () => ctx.postOrder(key, body)],
    ['POST /quotes', () => client.post(ctx.path('quotes'), quoteBody(ctx, catalog))],
    ['POST /orders/{id}/cancel', () => client.post(ctx.path('orderCancel', { id: orderId }))],
    ['POST /oauth/token', () => tokenRequest(ctx, key)],
  ];
  // Each call stands alone: all at once, judged in order.
  const answers = await allAtOnce(calls, ([, call]) => call());
  calls.forEach(([what], i) => {
    const res = answers[i] as HttpResponse;
    if (!ctx.expectProblem(res, { status: 503, code: 'api_unavailable' }))
      ctx.note(`${what} answered ${res.status}`);
  });
  await backToNormal(ctx, account);
  await expectNoOrder(ctx, key, body.external_id, 'a new order while the API was switched off');
  expectSuccess(
    ctx,
    await client.post(ctx.path('orderCancel', { id: orderId })),
    'cancelling, back to normal, the order the switched-off API refused to cancel',
  );
});
