import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  HarnessError,
  newIdempotencyKey,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { issuedToken, requestToken } from '../support/token-request.js';

/**
 * Where an answer holds a secret: its body or a header, named without the
 * value (the report must not carry the secret either). The part after
 * `_sk_` is looked for too: a server that shows the secret without its
 * prefix shows it all the same.
 */
function whereShown(res: HttpResponse, secrets: readonly string[]): string | undefined {
  const needles = secrets.flatMap((secret) => {
    const at = secret.indexOf('_sk_');
    const chars = at < 0 ? '' : secret.slice(at + 4);
    return chars.length >= 16 ? [secret, chars] : [secret];
  });
  if (needles.some((needle) => res.text.includes(needle))) return 'the body';
  const header = Object.entries(res.headers).find(([, value]) =>
    needles.some((needle) => value.includes(needle)),
  );
  return header ? `the header ${header[0]}` : undefined;
}

function expectNoSecret(
  ctx: CheckContext,
  res: HttpResponse,
  secrets: readonly string[],
  what: string,
): void {
  const where = whereShown(res, secrets);
  ctx.expectTrue(where === undefined, {
    code: 'LEAK',
    pointer: where === 'the body' ? '/body' : '/headers',
    expected: 'no Secret Key in the answer',
    received: `the Secret Key in ${where}`,
    message: `${what} showed the Secret Key again (section 2: shown once, when the key is created or rolled)`,
    exchange: res.exchange,
  });
}

/**
 * The key's token and every kind of answer it can get without sending its
 * secret anywhere but the token request's Basic header: the account, the
 * catalog, the order, webhook endpoint and event lists, a 404, a 422 that
 * places nothing, and a refused token request. Each is scanned for the
 * secrets; requests that do not depend on each other go out at once.
 */
async function tour(ctx: CheckContext, key: Key, secrets: readonly string[], when: string) {
  const issued = await requestToken(ctx, key);
  expectNoSecret(ctx, issued, secrets, `the token response ${when}`);
  const token = issuedToken(issued);
  if (token === undefined) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `no token for the key ${when}: HTTP ${issued.status} (evidence #${issued.exchange})`,
    );
  }
  const auth = { kind: 'bearer', token } as const;
  const { operations } = ctx.dialect;
  const calls: [string, () => Promise<HttpResponse>][] = [
    ['GET /account', () => ctx.send({ method: 'GET', path: ctx.path('account'), auth })],
    ['the catalog', () => ctx.send({ method: 'GET', path: ctx.path('catalogProducts'), auth })],
    ['GET /orders', () => ctx.send({ method: 'GET', path: ctx.path('orders'), auth })],
    [
      'a 404 for an order that does not exist',
      () =>
        ctx.send({
          method: 'GET',
          path: ctx.path('order', { id: `ord_${ctx.faker.string.alphanumeric(24)}` }),
          auth,
        }),
    ],
    [
      // An empty body is refused (section 4: missing required fields give 422): nothing is placed.
      'a 422 for an order with no fields',
      () =>
        ctx.send({
          method: 'POST',
          path: ctx.path('orders'),
          json: {},
          headers: { 'idempotency-key': newIdempotencyKey() },
          auth,
        }),
    ],
    [
      'the webhook endpoint list',
      () =>
        ctx.send({
          method: operations.webhookEndpointList.method,
          path: ctx.path('webhookEndpoints'),
          auth,
        }),
    ],
    [
      'the event list',
      () => ctx.send({ method: operations.eventList.method, path: ctx.path('events'), auth }),
    ],
    [
      'a token request refused for its grant_type',
      () => requestToken(ctx, key, { form: { grant_type: 'password' } }),
    ],
  ];
  const answers = await allAtOnce(calls, ([, call]) => call());
  calls.forEach(([what], i) => {
    expectNoSecret(ctx, answers[i] as HttpResponse, secrets, `${what} ${when}`);
  });
}

checksUseOwnAccounts();

check('KEY-11', async (ctx) => {
  // Section 2, API key: the Secret Key is "Secret. Shown once, when the key is created or
  // rolled." No later answer of the API holds it, whatever the request.
  const key = await ctx.key();
  await tour(ctx, key, [key.secretKey], 'after the key was created');
  if (!(ctx.has('keys') && key.mode === 'test' && key.accountId !== undefined)) {
    ctx.note(
      'the key is not rolled (needs the control feature "keys"): the answers after a roll are not tried',
    );
    return;
  }
  // Rolled: the new secret was shown by the roll; neither it nor the old one is shown again.
  const rolled = await ctx.control.rollKey(key);
  ctx.forgetTokens(key);
  await tour(ctx, rolled, [rolled.secretKey, key.secretKey], 'after the key was rolled');
});
