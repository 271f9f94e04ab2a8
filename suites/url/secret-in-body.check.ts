import {
  addressOf,
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  quoteBodyOf,
  uniqueExternalId,
  withAddress,
} from '../../lib/check/index.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

interface SecretInBody {
  what: string;
  res: HttpResponse;
  /** Set for the order: its external_id, to look for an order that should not exist. */
  externalId?: string;
}

/**
 * API requests that are valid but for the key's own Secret Key inside a
 * field of the body (an address line): an order and a quote. The key is made
 * for the check (the secret is burnt afterwards) and is a test key, as an
 * order is placed if the target does not refuse it.
 */
async function requestsWithSecretInBody(ctx: CheckContext) {
  const key = await ctx.key({ mode: 'test' });
  const externalId = uniqueExternalId('ct-secret');
  const body = await ctx.orderBody({ externalId: externalId });
  const shape = ctx.dialect.orderBody;
  const withSecret = withAddress(shape, body, { ...addressOf(shape, body), line2: key.secretKey });
  const cases: SecretInBody[] = [
    {
      what: 'POST /orders with the Secret Key in shipping_address.line2',
      res: await ctx.postOrder(key, withSecret),
      externalId,
    },
    {
      what: 'POST /quotes with the Secret Key in shipping_address.line2',
      res: await ctx.api(key).post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, withSecret)),
    },
  ];
  return { key, cases };
}

// Section 5, rule 4: the Secret Key is sent only in the Basic header of the token request; a Secret
// Key in a request body is refused (contract: and no order is placed).
check('URL-03', async (ctx) => {
  const { key, cases } = await requestsWithSecretInBody(ctx);
  for (const { what, res, externalId } of cases) {
    ctx.expectTrue(res.status >= 400 && res.status < 500, {
      code: 'STATUS',
      pointer: '/status',
      expected: 'a 4xx refusal',
      received: res.status,
      message: `${what} was not refused`,
      exchange: res.exchange,
    });
    if (externalId === undefined) continue;
    await expectNoOrder(ctx, key, externalId, 'a body holding a Secret Key');
  }
});

// Contract section 2: a Secret Key in a request body gets 422 validation_failed, token request included.
check('URL-06', async (ctx) => {
  const { key, cases } = await requestsWithSecretInBody(ctx);
  for (const { res } of cases) ctx.expectProblem(res, { status: 422, code: 'validation_failed' });
  const token = await requestToken(ctx, key, {
    form: { grant_type: 'client_credentials', client_secret: key.secretKey },
  });
  ctx.expectProblem(token, { status: 422, code: 'validation_failed' });
});
