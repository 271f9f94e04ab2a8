import {
  addressOf,
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  idIn,
  type Key,
  quoteBodyOf,
  uniqueExternalId,
  withAddress,
} from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { requestToken } from '../support/token-request.js';
import { deleteEndpoint, endpointBody } from '../support/webhook-endpoints.js';

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
      must: { at: '/status', is: { between: [400, 499] } },
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

/**
 * Strings shaped like Secret Keys (section 2: `<prefix>_test_sk_<chars>` or
 * `<prefix>_live_sk_<chars>`) that are not the sending key's: made up in the
 * shape of the key's own secret (its prefix, and as many characters of the
 * same kinds), in both modes, and another key's real one when the run can
 * make a key. None is the sender's, so a server that refuses only its own
 * key's secret, or only secrets it issued, takes them.
 */
async function foreignSecrets(
  ctx: CheckContext,
  key: Key,
): Promise<{ what: string; secret: string }[]> {
  const shape = /^(.+)_(test|live)_sk_(.+)$/.exec(key.secretKey);
  const prefix = shape?.[1] ?? ctx.dialect.keyPrefix;
  const length = Math.max(shape?.[3]?.length ?? 32, 24);
  const chars = () => ctx.faker.string.alphanumeric(length);
  const secrets = [
    { what: 'a made-up test Secret Key', secret: `${prefix}_test_sk_${chars()}` },
    { what: 'a made-up live Secret Key', secret: `${prefix}_live_sk_${chars()}` },
  ];
  if (!ctx.has('keys')) {
    ctx.note("another key's Secret Key needs a key made for the check (control feature keys)");
    return secrets;
  }
  // A key made for this check alone: its secret is burnt by being sent, and it is revoked as the check ends.
  const other = await ctx.key();
  return [...secrets, { what: "another key's Secret Key", secret: other.secretKey }];
}

// Section 5, rule 4: "A Secret Key in the request body is refused", as the contract reads it: "A body
// holding anything shaped like a Secret Key is refused." An order (and no order placed), a quote, a
// webhook endpoint and a token request, each holding a secret that is not the sender's.
check('URL-07', async (ctx) => {
  const key = await ctx.key();
  const secrets = await foreignSecrets(ctx, key);
  const client = ctx.api(key);
  const shape = ctx.dialect.orderBody;
  const { operations } = ctx.dialect;
  // Drawn one after another, before anything is sent: the same seed, the same bodies.
  const cases: {
    what: string;
    secret: string;
    externalId: string;
    order: Record<string, unknown>;
  }[] = [];
  for (const { what, secret } of secrets) {
    const externalId = uniqueExternalId('ct-secret');
    const body = await ctx.orderBody({ externalId });
    const order = withAddress(shape, body, { ...addressOf(shape, body), line2: secret });
    cases.push({ what, secret, externalId, order });
  }
  if (key.mode === 'live') ctx.note('a live key places no order here: the order case is left out');
  const answers = await allAtOnce(cases, async ({ secret, order }) => {
    const [placed, quote, endpoint, token] = await together(
      key.mode === 'live' ? Promise.resolve(undefined) : ctx.postOrder(key, order),
      client.post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, order)),
      client.send({
        method: operations.webhookEndpointCreate.method,
        path: ctx.path('webhookEndpoints'),
        json: endpointBody(ctx, `https://hooks.example.com/${secret}`),
      }),
      requestToken(ctx, key, { form: { grant_type: 'client_credentials', client_secret: secret } }),
    );
    const made = idIn(ctx.dialect, 'webhookEndpoint', endpoint.json);
    if (endpoint.status < 300 && made !== undefined)
      ctx.onCleanup(async () => {
        await deleteEndpoint(ctx, key, made);
      });
    return { placed, quote, endpoint, token };
  });
  const refused = (res: HttpResponse, what: string) =>
    ctx.expectTrue(res.status >= 400 && res.status < 500, {
      code: 'STATUS',
      pointer: '/status',
      expected: 'a 4xx refusal',
      received: res.status,
      message: `${what} was not refused`,
      exchange: res.exchange,
      must: { at: '/status', is: { between: [400, 499] } },
    });
  for (const [i, { what, externalId }] of cases.entries()) {
    const { placed, quote, endpoint, token } = answers[i] as (typeof answers)[number];
    if (placed) {
      refused(placed, `POST /orders with ${what} in an address line`);
      await expectNoOrder(ctx, key, externalId, `an order holding ${what}`);
    }
    refused(quote, `POST /quotes with ${what} in an address line`);
    // The endpoint's method is the profile's (section 6 shows none), and its scope may be lacking:
    // a 403, 404 or 405 refuses it for another reason and says nothing about the secret.
    if ([403, 404, 405].includes(endpoint.status)) {
      ctx.note(
        `creating a webhook endpoint holding ${what} answered ${endpoint.status}: not judged`,
      );
    } else refused(endpoint, `creating a webhook endpoint whose URL holds ${what}`);
    expectNoToken(ctx, token, `a token request whose form holds ${what}`);
  }
});
