import { randomBytes } from 'node:crypto';
import type {
  AccountSettings,
  CheckContext,
  HttpResponse,
  Key,
  RequestSpec,
} from '../../lib/check/index.js';
import { newIdempotencyKey, uniqueExternalId } from '../../lib/check/index.js';
import { firstRefusal } from '../rate/burst.js';
import { keyScopes } from '../support/key-scopes.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';
import { provokeOperationErrors } from './provoke-operation-errors.js';

/** An error answer the check provoked, and what was done to provoke it. */
export interface ProvokedError {
  what: string;
  res: HttpResponse;
}

const unknownId = (stem: string) => `${stem}_${randomBytes(12).toString('hex')}`;

/**
 * Provokes a broad set of errors, every one the run can: without the control
 * API, those of authentication, scope, URL credentials, idempotency, media
 * type, validation, malformed and odd bodies, unknown objects and paths, and
 * the token endpoint; with it, also account states (sandbox off, suspended,
 * incomplete, live access off), a revoked key, an IP allowlist, an expired
 * token (clock), a rate limit, and the errors of operations
 * (provoke-operation-errors.ts: conflicts, payments, faults, service
 * states). Orders are placed only in accounts made through the control API;
 * with the partner key, bodies that would place an order are invalid.
 * Answers only the 4xx and 5xx answers; anything served is noted and left out.
 */
export async function provokeErrors(ctx: CheckContext): Promise<ProvokedError[]> {
  // Once per file: the ERR rules judge the same answers, each keeping the exchanges in its own evidence.
  return ctx.sharedInFile('provoked errors', () => provokeAll(ctx));
}

async function provokeAll(ctx: CheckContext): Promise<ProvokedError[]> {
  const key = await ctx.key();
  const token = await ctx.token(key);
  const bearer = { kind: 'bearer' as const, token };
  const order = await ctx.orderBody({ externalId: uniqueExternalId('ct-err') });
  const idem = () => ({ 'idempotency-key': newIdempotencyKey() });
  const json = { 'content-type': 'application/json' };

  const plain: { what: string; spec: RequestSpec }[] = [
    { what: 'no Authorization header', spec: { method: 'GET', path: ctx.path('account') } },
    {
      what: 'an unknown token',
      spec: {
        method: 'GET',
        path: ctx.path('account'),
        auth: {
          kind: 'bearer',
          token: `${ctx.dialect.keyPrefix}_at_${randomBytes(20).toString('hex')}`,
        },
      },
    },
    {
      what: 'an unknown order',
      spec: { method: 'GET', path: ctx.path('order', { id: unknownId('ord') }), auth: bearer },
    },
    {
      what: 'an unknown quote',
      spec: { method: 'GET', path: ctx.path('quote', { id: unknownId('quo') }), auth: bearer },
    },
    {
      what: 'an unknown path',
      spec: {
        method: 'GET',
        path: `/no-such-resource-${randomBytes(4).toString('hex')}`,
        auth: bearer,
      },
    },
    {
      what: 'an access token in the query string',
      spec: {
        method: 'GET',
        path: ctx.path('account'),
        query: { access_token: token },
        auth: bearer,
      },
    },
    {
      what: 'POST /orders without Idempotency-Key',
      spec: { method: 'POST', path: ctx.path('orders'), json: {}, auth: bearer },
    },
    {
      what: 'POST /orders with an Idempotency-Key of 256 characters',
      spec: {
        method: 'POST',
        path: ctx.path('orders'),
        json: {},
        headers: { 'idempotency-key': 'k'.repeat(256) },
        auth: bearer,
      },
    },
    {
      what: 'POST /orders with a text/plain body',
      spec: {
        method: 'POST',
        path: ctx.path('orders'),
        body: 'external_id=x',
        headers: { ...idem(), 'content-type': 'text/plain' },
        auth: bearer,
      },
    },
    {
      what: 'POST /orders with an empty object',
      spec: { method: 'POST', path: ctx.path('orders'), json: {}, headers: idem(), auth: bearer },
    },
    {
      what: 'POST /orders with fields of the wrong types',
      spec: {
        method: 'POST',
        path: ctx.path('orders'),
        json: { external_id: 7, items: 'all of them', shipping_address: [], status: 'shipped' },
        headers: idem(),
        auth: bearer,
      },
    },
    {
      what: 'POST /orders with deeply nested JSON',
      spec: {
        method: 'POST',
        path: ctx.path('orders'),
        body: `${'['.repeat(2000)}${']'.repeat(2000)}`,
        headers: { ...idem(), ...json },
        auth: bearer,
      },
    },
    {
      what: 'POST /quotes with malformed JSON',
      spec: {
        method: 'POST',
        path: ctx.path('quotes'),
        body: '{"items": [',
        headers: json,
        auth: bearer,
      },
    },
    {
      what: 'POST /quotes with the JSON null',
      spec: { method: 'POST', path: ctx.path('quotes'), body: 'null', headers: json, auth: bearer },
    },
    {
      what: 'POST /quotes with a huge number and an operator object',
      spec: {
        method: 'POST',
        path: ctx.path('quotes'),
        body: '{"items":[{"sku":{"$gt":""},"quantity":1e999}],"shipping_address":{"country":"\\u0000"}}',
        headers: json,
        auth: bearer,
      },
    },
    {
      what: 'POST /quotes with an empty object',
      spec: { method: 'POST', path: ctx.path('quotes'), json: {}, auth: bearer },
    },
    {
      what: 'GET /orders with limit=0',
      spec: { method: 'GET', path: ctx.path('orders'), query: { limit: '0' }, auth: bearer },
    },
  ];
  const scopeLess = (await keyScopes(ctx, key)).find((scope) => scope !== 'orders:read');
  if (scopeLess !== undefined) {
    plain.push({
      what: `GET /orders with a token holding only ${scopeLess}`,
      spec: {
        method: 'GET',
        path: ctx.path('orders'),
        auth: { kind: 'key', key, scopes: [scopeLess] },
      },
    });
  }

  // Every group below is independent of the others: all at once (a target far away is not asked
  // one group after another), their answers kept in this order.
  const plainErrors: Promise<ProvokedError[]> = Promise.all(
    plain.map(async ({ what, spec }) => ({ what, res: await ctx.send(spec) })),
  );
  // The token endpoint's errors. With the partner key only, a made-up key is used: the partner's own
  // 20 token requests a minute (section 8) are shared with every other check of the run.
  const tokenKey = ctx.has('keys')
    ? key
    : {
        accessKeyId: `${ctx.dialect.keyPrefix}_test_ak_${randomBytes(12).toString('hex')}`,
        secretKey: '',
      };
  const wrongSecret = `${ctx.dialect.keyPrefix}_test_sk_${randomBytes(16).toString('hex')}`;
  const tokenErrors: Promise<ProvokedError[]> = Promise.all([
    requestToken(ctx, { accessKeyId: tokenKey.accessKeyId, secretKey: wrongSecret }).then(
      (res) => ({ what: 'a token request with a wrong secret', res }),
    ),
    requestToken(ctx, tokenKey, { form: { grant_type: 'password' } }).then((res) => ({
      what: 'a token request with grant_type=password',
      res,
    })),
  ]);
  const groups = [plainErrors, tokenErrors];
  const withControl = ctx.has('accounts') && ctx.has('keys');
  if (withControl) {
    groups.push(accountStateErrors(ctx, order), provokeOperationErrors(ctx));
  } else {
    ctx.note(
      'errors of account states, keys, expiry, rate limits, conflicts, payments, faults and service states need the control API',
    );
  }
  const out = (await Promise.all(groups)).flat();
  // The rate limit last, alone: its 21 token requests in a row in the check's evidence, so a
  // reproduction replays them as one loop (sent until the 429, a new window allowed for) instead
  // of scattered among the other cases, where a replay that crosses into the next minute meets
  // a fresh window at the 21st and no 429.
  if (withControl) out.push(...(await rateLimitError(ctx)));

  return out.filter(({ what, res }) => {
    if (res.status >= 400) return true;
    ctx.note(`${what} was answered ${res.status}, not an error: left out`);
    return false;
  });
}

/** The token endpoint's rate limit (section 8: 20 token requests a minute): the 21st is refused. */
async function rateLimitError(ctx: CheckContext): Promise<ProvokedError[]> {
  const key = await ctx.key();
  const limited = await firstRefusal(ctx, 20, () => requestToken(ctx, key));
  return limited ? [{ what: 'the 21st token request of a minute', res: limited }] : [];
}

/** Errors only accounts and keys made for the check can provoke; independent, so made side by side. */
async function accountStateErrors(
  ctx: CheckContext,
  order: Record<string, unknown>,
): Promise<ProvokedError[]> {
  /** The first refusal a key meets: at its token request or, with the token, at an API call. */
  const refusalOf = async (
    what: string,
    key: Key,
    call: (token: string) => Promise<HttpResponse> = (t) => getAccountWith(ctx, t),
  ): Promise<ProvokedError[]> => {
    const res = await requestToken(ctx, key);
    const token = issuedToken(res);
    return [{ what, res: token === undefined ? res : await call(token) }];
  };
  const placeWith = (token: string) =>
    ctx.send({
      method: 'POST',
      path: ctx.path('orders'),
      json: order,
      headers: { 'idempotency-key': newIdempotencyKey() },
      auth: { kind: 'bearer', token },
    });
  const inAccount = async (settings: AccountSettings, mode: 'test' | 'live' = 'test') =>
    ctx.key({ mode, account: await ctx.newAccount(settings) });

  const cases: Promise<ProvokedError[]>[] = [
    inAccount({ test_mode: false }).then((key) =>
      refusalOf('a test key while test mode is off', key),
    ),
    inAccount({ live_access: false }, 'live').then((key) =>
      refusalOf('a live key before live access', key),
    ),
    inAccount({ suspended: true }).then((key) =>
      refusalOf('an order of a suspended account', key, placeWith),
    ),
    inAccount({ incomplete: true }).then((key) =>
      refusalOf('an order of an incomplete account', key, placeWith),
    ),
    ctx
      .key({ ip_allowlist: ['192.0.2.0/24', '2001:db8::/32'] })
      .then((key) => refusalOf('a key allowlisted for other addresses', key)),
    (async () => {
      const revoked = await ctx.key();
      const token = issuedToken(await requestToken(ctx, revoked));
      await ctx.control.revokeKey(revoked);
      return token
        ? [{ what: 'a token of a revoked key', res: await getAccountWith(ctx, token) }]
        : [];
    })(),
  ];
  if (ctx.has('clock')) {
    cases.push(
      (async () => {
        const aging = await ctx.newAccount();
        const key = await ctx.key({ account: aging });
        const token = issuedToken(await requestToken(ctx, key));
        if (!token) return [];
        await ctx.advanceClock(aging, 3601);
        return [{ what: 'an expired token', res: await getAccountWith(ctx, token) }];
      })(),
    );
  }
  return (await Promise.all(cases)).flat();
}
