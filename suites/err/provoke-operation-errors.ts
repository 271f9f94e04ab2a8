import type { AccountSettings, CheckContext, HttpResponse } from '../../lib/check/index.js';
import { API_BASE_PATH, newIdempotencyKey } from '../../lib/check/index.js';
import { createEndpoint, ENDPOINTS_PER_MODE } from '../support/webhook-endpoints.js';
import type { ProvokedError } from './provoke-errors.js';

/**
 * The errors of operations that go wrong only once something exists or an
 * account is set up to refuse: conflicts (idempotency_conflict,
 * duplicate_external_id, not_cancellable), limit_exceeded, the four 402 codes,
 * internal_error and the two 503 codes. So the ERR rules hold every code of
 * the section 7 table to the problem+json shape, not only the easy ones.
 * Each case has an account of its own made through the control API; orders are
 * placed only there.
 */
export async function provokeOperationErrors(ctx: CheckContext): Promise<ProvokedError[]> {
  const inAccount = async (settings: AccountSettings = {}) => {
    const account = await ctx.newAccount(settings);
    return { account, key: await ctx.key({ account }) };
  };
  const one = (what: string, res: HttpResponse): ProvokedError[] => [{ what, res }];

  const cases: Promise<ProvokedError[]>[] = [
    (async () => {
      const { account, key } = await inAccount();
      const idempotencyKey = newIdempotencyKey();
      await ctx.postOrder(key, await ctx.orderBody(undefined, account), { idempotencyKey });
      const other = await ctx.orderBody(undefined, account);
      return one(
        'the same Idempotency-Key with another body',
        await ctx.postOrder(key, other, { idempotencyKey }),
      );
    })(),
    (async () => {
      const { account, key } = await inAccount();
      const body = await ctx.orderBody(undefined, account);
      await ctx.postOrder(key, body);
      return one('a second order with the same external_id', await ctx.postOrder(key, body));
    })(),
    (async () => {
      const { account, key } = await inAccount();
      const placed = await ctx.placeOrder(key, await ctx.orderBody(undefined, account));
      const cancel = () => ctx.api(key).post(ctx.path('orderCancel', { id: placed.id }));
      await cancel();
      return one('cancelling an order twice', await cancel());
    })(),
    (async () => {
      const { key } = await inAccount();
      // The five allowed, all at once; only then the sixth.
      await Promise.all(Array.from({ length: ENDPOINTS_PER_MODE }, () => createEndpoint(ctx, key)));
      return one('a sixth webhook endpoint', await createEndpoint(ctx, key));
    })(),
  ];
  if (ctx.has('payments')) {
    const cards = [
      ['declined', 'a declined card'],
      ['authentication_required', 'a card that needs the bank’s approval'],
      ['missing', 'card billing with no card saved'],
      ['failing', 'a payment that fails'],
    ] as const;
    for (const [card, what] of cards) {
      cases.push(
        (async () => {
          const billing = { method: 'card', card, decline_code: 'insufficient_funds' } as const;
          const { account, key } = await inAccount({ billing });
          return one(
            `an order with ${what}`,
            await ctx.postOrder(key, await ctx.orderBody(undefined, account)),
          );
        })(),
      );
    }
  }
  if (ctx.has('faults')) {
    cases.push(
      (async () => {
        const { account, key } = await inAccount();
        const path = ctx.path('orders');
        await ctx.control.injectFault(account.id, {
          method: 'GET',
          path: API_BASE_PATH + path,
          when: 'before_commit',
          times: 1,
        });
        return one('GET /orders with an injected fault', await ctx.api(key).get(path));
      })(),
    );
  }
  if (ctx.has('service_state')) {
    cases.push(
      (async () => {
        const { account, key } = await inAccount({ service: 'read_only' });
        return one(
          'an order while the service is read-only',
          await ctx.postOrder(key, await ctx.orderBody(undefined, account)),
        );
      })(),
      (async () => {
        // The token is got first: contract section 3 switches off everything, token requests too.
        const { account, key } = await inAccount();
        const token = await ctx.token(key);
        await ctx.control.updateAccount(account.id, { service: 'unavailable' });
        const res = await ctx.send({
          method: 'GET',
          path: ctx.path('account'),
          auth: { kind: 'bearer', token },
        });
        return one('GET /account while the service is switched off', res);
      })(),
    );
  }
  return (await Promise.all(cases)).flat();
}
