import { describe, expect, test } from 'vitest';
import type { RawExchange } from '../../lib/evidence/exchange.js';
import { ReplayBook } from '../../lib/evidence/trace.js';

const raw = (over: Partial<RawExchange>): RawExchange => ({
  channel: 'api',
  startedAt: new Date(0),
  durationMs: 1,
  method: 'POST',
  url: '/x',
  requestHeaders: {},
  status: 200,
  ...over,
});

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

// Each exchange is kept as a replay step; identifiers that came from earlier answers
// become variables learned again at replay time, so no step holds a secret or a run's id.
describe('the replay book', () => {
  test('names identifiers from earlier answers, credentials included, and keeps no secret', () => {
    const book = new ReplayBook();
    book.env('control-token-0123456789', 'CONTROL_TOKEN');
    book.add(
      1,
      raw({
        channel: 'control',
        url: '/__control/accounts/acct_1/keys',
        requestHeaders: { 'x-control-token': 'control-token-0123456789' },
        // An id without a digit is still an id: it is named so.
        responseBody: JSON.stringify({
          access_key_id: 'odp_test_ak_NoDigitsHere',
          secret_key: 'odp_test_sk_s3cr3t',
        }),
      }),
    );
    book.add(
      2,
      raw({
        url: '/oauth/token',
        requestHeaders: { authorization: basic('odp_test_ak_NoDigitsHere', 'odp_test_sk_s3cr3t') },
        requestBody: 'grant_type=client_credentials',
        responseBody: JSON.stringify({ access_token: 'odp_at_tok1', token_type: 'Bearer' }),
      }),
    );
    book.add(
      3,
      raw({
        url: '/orders',
        requestHeaders: {
          authorization: 'Bearer odp_at_tok1',
          'idempotency-key': 'ct-5f1b2c3d-0000-4000-8000-1234567890ab',
        },
        requestBody: JSON.stringify({ external_id: 'ct-123456-abc' }),
        status: 201,
        responseBody: JSON.stringify({ id: 'ord_42abc', status: 'pending_payment' }),
      }),
    );
    book.add(
      4,
      raw({
        url: '/orders/ord_42abc/cancel',
        requestHeaders: { authorization: 'Bearer odp_at_tok1' },
      }),
    );

    const trace = book.trace([4]);
    expect(trace.steps.map((s) => s.id)).toEqual([1, 2, 3, 4]);
    const text = JSON.stringify(trace);
    for (const secret of [
      'control-token-0123456789',
      'odp_test_sk_s3cr3t',
      'odp_at_tok1',
      'ord_42abc',
    ])
      expect(text).not.toContain(secret);
    const [, token, order, cancel] = trace.steps;
    expect(token?.basic).toMatch(/^\{\{v\d+\}\}:\{\{v\d+\}\}$/);
    expect(cancel?.url).toMatch(/^\/orders\/\{\{v\d+\}\}\/cancel$/);
    expect(cancel?.uses).toEqual([2, 3]);
    const kinds = Object.values(trace.vars)
      .map((v) => v.kind)
      .sort();
    expect(kinds).toEqual(['answer', 'answer', 'answer', 'answer', 'client', 'client', 'env']);
    // Client-made values are fresh per replay: only their shape is kept.
    expect(order?.headers['idempotency-key']).toMatch(/^\{\{v\d+\}\}$/);
    expect(order?.body).toMatch(/"external_id":"\{\{v\d+\}\}"/);
  });

  test('leaves words and paths alone: a status or a problem instance is no identifier', () => {
    const book = new ReplayBook();
    book.add(
      1,
      raw({
        responseBody: JSON.stringify({ status: 'pending_payment', instance: '/api/v1/orders' }),
      }),
    );
    book.add(2, raw({ url: '/api/v1/orders?status=pending_payment' }));
    const trace = book.trace([2]);
    expect(trace.steps.map((s) => s.id)).toEqual([2]);
    expect(trace.steps[0]?.url).toBe('/api/v1/orders?status=pending_payment');
  });

  test('forgets every exchange and value once its file has ended, and numbers on', () => {
    const book = new ReplayBook();
    const first = book.exchangeId();
    book.add(first, raw({ responseBody: JSON.stringify({ id: 'ord_42abc' }) }));
    expect(book.template('/orders/ord_42abc')).toMatch(/^\/orders\/\{\{v\d+\}\}$/);
    book.forget();
    expect(book.trace([first]).steps).toEqual([]);
    expect(book.template('/orders/ord_42abc')).toBe('/orders/ord_42abc');
    const next = book.exchangeId();
    expect(next).toBe(first + 1);
    book.add(next, raw({ url: '/orders/ord_42abc' }));
    expect(book.trace([next]).steps.map((s) => s.id)).toEqual([next]);
  });
});

describe('the replay book against text a target chose', () => {
  test('a `{{` of the text itself is written `{{!}}`: never taken for a variable', () => {
    const book = new ReplayBook();
    book.env('control-token-0123456789', 'CONTROL_TOKEN');
    // A hostile target answers a value that looks like a variable of the trace, with a space.
    expect(book.template('{{v1}} x')).toBe('{{!}}v1}} x');
    expect(book.template('control-token-0123456789 and {{v1}}')).toBe('{{v1}} and {{!}}v1}}');
  });

  test('an id that needs percent-encoding is named where it travels encoded, in a URL', () => {
    const book = new ReplayBook();
    book.add(1, raw({ responseBody: JSON.stringify({ id: 'acct:12/x' }) }));
    book.add(2, raw({ method: 'GET', url: `/accounts/${encodeURIComponent('acct:12/x')}/keys` }));
    const { steps, vars } = book.trace([2]);
    expect(steps.at(-1)?.url).toBe('/accounts/{{v1}}/keys');
    expect(vars.v1).toEqual({ kind: 'answer', step: 1, pointer: '/id' });
  });

  test('a credential the check made up becomes a value made up again, in two parts no redactor hides', () => {
    const book = new ReplayBook();
    const name = book.made('odp_at_Zx9kQ2mP0aa');
    expect(book.variable(name)).toEqual({ kind: 'made', prefix: 'odp_at_', shape: 'Aa0aA0aA0aa' });
    // The same value again is the same variable.
    expect(book.made('odp_at_Zx9kQ2mP0aa')).toBe(name);
  });

  test('when each request was sent and answered: which were in flight together', () => {
    const book = new ReplayBook();
    book.add(1, raw({ sentAt: 1000.25, durationMs: 3.5 }));
    const [step] = book.trace([1]).steps;
    expect([step?.at, step?.ms]).toEqual([1000.25, 3.5]);
  });
});

describe('the replay book made into steps only when read', () => {
  /** A file's worth of exchanges: ids from answers, used by later requests, some sent before an answer came. */
  const exchanges = (): [number, RawExchange][] =>
    Array.from({ length: 60 }, (_, i) => [
      i + 1,
      raw({
        url: i > 0 ? `/orders/ord_${i - 1}x1/cancel` : '/orders',
        requestHeaders: { authorization: `Bearer odp_at_token${i % 3}abcdef` },
        sentAt: 1000 + i * (i % 4 === 0 ? 0.5 : 2),
        durationMs: 1.5,
        responseBody: JSON.stringify({
          id: `ord_${i}x1`,
          access_token: `odp_at_token${(i + 1) % 3}abcdef`,
        }),
      }),
    ]);

  test('the same steps and variables whether read after every exchange or once at the end', () => {
    const eager = new ReplayBook();
    const lazy = new ReplayBook();
    eager.env('control-token-0123456789', 'CONTROL_TOKEN');
    lazy.env('control-token-0123456789', 'CONTROL_TOKEN');
    for (const [id, exchange] of exchanges()) {
      eager.add(id, exchange);
      // Reading the book makes what it holds into steps at once.
      eager.variable('v1');
      lazy.add(id, exchange);
      if (id === 30) {
        // A credential of the run's, given between exchanges, takes its place among them.
        eager.env('partner-key-ABCDEF012345', 'PARTNER_ACCESS_KEY_ID');
        lazy.env('partner-key-ABCDEF012345', 'PARTNER_ACCESS_KEY_ID');
      }
    }
    const all = Array.from({ length: 60 }, (_, i) => i + 1);
    expect(lazy.trace(all)).toEqual(eager.trace(all));
    expect(lazy.trace([60]).steps.length).toBeGreaterThan(1);
    expect(lazy.template('ord_30x1')).toBe(eager.template('ord_30x1'));
  });
});
