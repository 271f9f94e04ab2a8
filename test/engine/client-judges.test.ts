import { describe, expect, test } from 'vitest';
import { grade } from '../../lib/grading/grade.js';
import { JUDGES } from '../../lib/grading/judges/index.js';
import { Traffic } from '../../lib/grading/traffic.js';
import type { ClientExchange } from '../../lib/sandbox/exchange.js';
import { classOf, kindOf } from '../../lib/sandbox/exchange.js';
import { choiceText, parseSituations, planOf } from '../../lib/sandbox/plan.js';

const KEY = {
  accessKeyId: 'odp_test_ak_AAAAAAAAAAAAAAAAAAAAAAAA',
  secretKey: 'odp_test_sk_BBBBBBBBBBBBBBBBBBBBBBBB',
  scopes: ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'],
};
const BASIC = `Basic ${Buffer.from(`${KEY.accessKeyId}:${KEY.secretKey}`).toString('base64')}`;

/** A recorded exchange: arrives at `at` ms on its own new connection, answered 10 ms later. */
function ex(
  id: number,
  at: number,
  request: { method: string; url: string; headers?: Record<string, string>; body?: unknown },
  response: { status: number; body?: unknown; headers?: Record<string, string> },
  extra: Partial<ClientExchange> = {},
): ClientExchange {
  const url = request.url.startsWith('/') ? request.url : `/api/on-demand/v1/${request.url}`;
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string'
        ? request.body
        : JSON.stringify(request.body);
  return {
    id,
    startedAt: new Date(0),
    receivedMs: at,
    answeredMs: at + 10,
    connection: { id, openedMs: at, first: true },
    method: request.method,
    url,
    requestHeaders: {
      ...(body !== undefined && !url.endsWith('/oauth/token')
        ? { 'content-type': 'application/json' }
        : {}),
      ...request.headers,
    },
    ...(body === undefined ? {} : { requestBody: body }),
    status: response.status,
    responseHeaders: response.headers ?? {},
    ...(response.body === undefined ? {} : { responseBody: JSON.stringify(response.body) }),
    kind: kindOf(request.method, url),
    cls: classOf(request.method, url),
    reworded: false,
    notes: [],
    ...extra,
  };
}

const token = (id: number, at: number, status = 200, name = `odp_at_${'t'.repeat(20)}${id}`) =>
  ex(
    id,
    at,
    {
      method: 'POST',
      url: '/api/on-demand/v1/oauth/token',
      headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    },
    status === 200
      ? { status, body: { access_token: name } }
      : { status, body: { code: 'rate_limited' } },
  );
const bearer = (t = 'odp_at_tttttttttttttttttttt1') => ({ authorization: `Bearer ${t}` });
const order = (externalId: string, key?: string) => ({
  method: 'POST',
  url: 'orders',
  headers: { ...bearer(), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  body: { external_id: externalId, items: [{ sku: 'MUG', quantity: 1 }] },
});
const problem = (code: string) => ({ code, title: code, detail: code });

function outcomes(exchanges: ClientExchange[]) {
  const graded = grade(new Traffic(exchanges, KEY), []);
  return Object.fromEntries(graded.map((g) => [g.rule.id, g.outcome]));
}

describe('the judges of the client rules', () => {
  test('a 500 retried with the same key is honoured; with a new key or never, broken', () => {
    const failed = ex(2, 100, order('A', 'k1'), { status: 500, body: problem('internal_error') });
    expect(
      outcomes([token(1, 0), failed, ex(3, 400, order('A', 'k1'), { status: 201 })])['CLIENT-15'],
    ).toBe('honoured');
    expect(
      outcomes([token(1, 0), failed, ex(3, 400, order('A', 'k2'), { status: 201 })])['CLIENT-15'],
    ).toBe('broken');
    expect(outcomes([token(1, 0), failed])['CLIENT-15']).toBe('broken');
  });

  test('after a 402 the same key is broken, a new key honoured, nothing not exercised', () => {
    const declined = ex(2, 100, order('A', 'k1'), { status: 402, body: problem('card_declined') });
    expect(
      outcomes([token(1, 0), declined, ex(3, 400, order('A', 'k1'), { status: 402 })])['CLIENT-16'],
    ).toBe('broken');
    expect(
      outcomes([token(1, 0), declined, ex(3, 400, order('A', 'k2'), { status: 201 })])['CLIENT-16'],
    ).toBe('honoured');
    expect(outcomes([token(1, 0), declined])['CLIENT-16']).toBe('not_exercised');
  });

  test("a 429's Retry-After is measured from the answer to the request sent again", () => {
    const limited = ex(
      2,
      100,
      { method: 'GET', url: 'account', headers: bearer() },
      {
        status: 429,
        body: problem('rate_limited'),
        headers: { 'retry-after': '1' },
      },
    );
    const again = (at: number) =>
      ex(3, at, { method: 'GET', url: 'account', headers: bearer() }, { status: 200 });
    expect(outcomes([token(1, 0), limited, again(110 + 1000)])['CLIENT-18']).toBe('honoured');
    expect(outcomes([token(1, 0), limited, again(110 + 300)])['CLIENT-18']).toBe('broken');
    expect(outcomes([token(1, 0), limited])['CLIENT-18']).toBe('broken');
  });

  test('a request under way before the answer went out is no retry of it, however late it came', () => {
    const limited = ex(
      2,
      100,
      { method: 'GET', url: 'account', headers: bearer() },
      {
        status: 429,
        body: problem('rate_limited'),
        headers: { 'retry-after': '1' },
      },
    );
    // Sent at once with the first (its connection opened before the 429 went out), delivered late.
    const concurrent = ex(
      3,
      400,
      { method: 'GET', url: 'account', headers: bearer() },
      { status: 200 },
      {
        connection: { id: 3, openedMs: 105, first: true },
      },
    );
    const retry = ex(
      4,
      1200,
      { method: 'GET', url: 'account', headers: bearer() },
      { status: 200 },
    );
    expect(outcomes([token(1, 0), limited, concurrent, retry])['CLIENT-18']).toBe('honoured');
  });

  test('more than 20 token requests in any 60 seconds break CLIENT-08; 20 do not', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => token(i + 1, i * 2_000));
    expect(outcomes(twenty)['CLIENT-08']).toBe('honoured');
    expect(outcomes([...twenty, token(21, 59_000)])['CLIENT-08']).toBe('broken');
    // Spread over more than a minute, 21 are fine.
    const spread = Array.from({ length: 21 }, (_, i) => token(i + 1, i * 3_100));
    expect(outcomes(spread)['CLIENT-08']).toBe('honoured');
  });

  test('the Secret Key is found in a query, percent-encoded, and in a body, JSON-escaped', () => {
    const inQuery = ex(
      2,
      100,
      { method: 'GET', url: `account?k=${encodeURIComponent(KEY.secretKey)}`, headers: bearer() },
      { status: 400 },
    );
    expect(outcomes([token(1, 0), inQuery])['CLIENT-05']).toBe('broken');
    expect(outcomes([token(1, 0), inQuery])['CLIENT-06']).toBe('broken');
    const escaped = JSON.stringify({ note: KEY.secretKey }).replaceAll('_', '\\u005f');
    const inBody = ex(
      2,
      100,
      { method: 'POST', url: 'quotes', headers: bearer(), body: escaped },
      { status: 422 },
    );
    expect(outcomes([token(1, 0), inBody])['CLIENT-05']).toBe('broken');
    expect(outcomes([token(1, 0), inBody])['CLIENT-06']).toBe('honoured');
    // Its own place: the Basic header of the token request.
    expect(outcomes([token(1, 0)])['CLIENT-05']).toBe('honoured');
  });

  test('a reworded answer failed after the same rule was kept with the usual words is CLIENT-21’s', () => {
    const expired = (id: number, at: number, reworded = false) =>
      ex(
        id,
        at,
        { method: 'GET', url: 'account', headers: bearer(`odp_at_${'t'.repeat(20)}${id - 1}`) },
        {
          status: 401,
          body: problem('token_expired'),
        },
        { reworded },
      );
    const kept = [
      token(1, 0),
      expired(2, 100),
      token(3, 200),
      ex(
        4,
        300,
        { method: 'GET', url: 'account', headers: bearer('odp_at_tttttttttttttttttttt3') },
        { status: 200 },
      ),
    ];
    // Reworded, the client sends the expired token again.
    const reworded = [
      expired(5, 400, true),
      ex(
        6,
        500,
        { method: 'GET', url: 'account', headers: bearer('odp_at_tttttttttttttttttttt4') },
        { status: 401 },
      ),
    ];
    const both = outcomes([...kept, ...reworded]);
    expect(both['CLIENT-09']).toBe('honoured');
    expect(both['CLIENT-21']).toBe('broken');
    // Failed with the usual words too: CLIENT-09's, and CLIENT-21 cannot tell.
    const never = outcomes([token(1, 0), expired(2, 100), expired(3, 200, true)]);
    expect(never['CLIENT-09']).toBe('broken');
    expect(never['CLIENT-21']).toBe('not_exercised');
  });

  test('a 422 sent again unchanged is broken; changed, honoured', () => {
    const refused = ex(2, 100, order('A', 'k1'), {
      status: 422,
      body: problem('validation_failed'),
    });
    expect(
      outcomes([token(1, 0), refused, ex(3, 200, order('A', 'k1'), { status: 422 })])['CLIENT-23'],
    ).toBe('broken');
    const fixed = {
      ...order('A', 'k1'),
      body: { external_id: 'A', items: [{ sku: 'MUG', quantity: 2 }] },
    };
    expect(outcomes([token(1, 0), refused, ex(3, 200, fixed, { status: 201 })])['CLIENT-23']).toBe(
      'honoured',
    );
  });

  test('with no occasion, a rule says which call would have exercised it', () => {
    const graded = grade(new Traffic([token(1, 0)], KEY), planOf(parseSituations('none')));
    const orders = graded.find((g) => g.rule.id === 'CLIENT-12');
    expect(orders?.outcome).toBe('not_exercised');
    expect(orders?.reason).toBe("the client's traffic held no order (POST /orders)");
    const retry = graded.find((g) => g.rule.id === 'CLIENT-15');
    expect(retry?.reason).toMatch(/500-before was not chosen \(--situations\)/);
    expect(JUDGES.size).toBe(22);
  });
});

describe('--situations', () => {
  test('all, none, names, NAME:N; anything else is refused naming the valid names', () => {
    expect(choiceText(parseSituations('all'))).toBe('all');
    expect(planOf(parseSituations('none'))).toEqual([]);
    const plan = planOf(parseSituations('429-read:2,reworded'));
    expect(plan.map((p) => `${p.situation}${p.reworded ? '+r' : ''}`)).toEqual([
      '429-read',
      '429-read',
      '429-read+r',
    ]);
    expect(() => parseSituations('429-reed')).toThrow(/not a situation \(situations: 429-token/);
    expect(() => parseSituations('read-only:0')).toThrow(/integer from 1 to 20/);
    expect(() => parseSituations('all,read-only')).toThrow(/stand alone/);
    expect(() => parseSituations(' , ')).toThrow(/names no situation/);
  });

  test('the reworded replays stand one for each kind: a 429, a 500', () => {
    const plan = planOf(parseSituations('all'));
    expect(plan.filter((p) => p.reworded).map((p) => p.situation)).toEqual([
      '429-read',
      'token-expired',
      '500-before',
      'card-declined',
      'duplicate-external-id',
      'read-only',
      'unavailable',
    ]);
  });
});

describe('situations a target cannot play', () => {
  test('are not played, and the rules they exercise say which control feature was lacking', async () => {
    const { Director } = await import('../../lib/sandbox/director.js');
    const plays = planOf(parseSituations('500-after,429-read,card-declined'));
    const director = new Director({
      plays,
      reworded: false,
      control: {
        accountId: 'acct_1',
        features: new Set(['accounts', 'keys']),
        client: {} as never,
      },
      forward: async () => ({ status: 200, headers: {}, body: '' }),
      own: async () => ({ status: 200, headers: {}, body: '' }),
      docsUrl: 'https://docs.example.com',
      retryAfterSeconds: 1,
    });
    expect(director.plays.map((p) => [p.situation, p.state, p.note])).toEqual([
      ['429-read', 'pending', undefined],
      ['500-after', 'unplayable', "the target's control API lacks faults"],
      ['card-declined', 'unplayable', "the target's control API lacks payments"],
    ]);
    const graded = grade(new Traffic([token(1, 0)], KEY), plays);
    expect(graded.find((g) => g.rule.id === 'CLIENT-15')?.reason).toBe(
      "no order answered 500 internal_error came: 500-before was not chosen (--situations); 500-after could not be played: the target's control API lacks faults",
    );
  });
});
