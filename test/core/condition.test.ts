import { describe, expect, test } from 'vitest';
import {
  type Answer,
  answerAt,
  type Condition,
  describeCondition,
  holds,
} from '../../lib/violations/condition.mjs';

const answer = (over: Partial<Answer> = {}): Answer => ({
  status: 429,
  headers: { 'retry-after': '30', 'content-type': 'application/problem+json; charset=utf-8' },
  json: { code: 'rate_limited', type: 'https://docs.example.com/errors#error-rate-limited' },
  text: '',
  ...over,
});

/**
 * The rule's condition as data, as checks judge with it and reproductions judge it again: a
 * half fix (another invalid value) breaks it as surely as the run's value did.
 */
describe('conditions', () => {
  const retryAfter: Condition = {
    at: '/headers/retry-after',
    is: { seconds: { min: 1, max: 60 } },
  };

  test('a Retry-After: a whole number of seconds within the window', () => {
    expect(holds(retryAfter, answer())).toBe(true);
    for (const value of ['soon', '0', '61', '1.5', '', 'Wed, 21 Oct 2015 07:28:00 GMT'])
      expect(holds(retryAfter, answer({ headers: { 'retry-after': value } })), value).toBe(false);
    expect(holds(retryAfter, answer({ headers: {} }))).toBe(false);
  });

  test("a problem type: the documented URI for the answer's own code", () => {
    const type: Condition = {
      at: '/body/type',
      is: { problemType: { docsUrl: 'https://docs.example.com' } },
    };
    expect(holds(type, answer())).toBe(true);
    for (const wrong of [
      'https://docs.example.com/errors#error-rate_limited',
      'https://docs.example.com/errors/rate-limited',
      'https://elsewhere.example/errors#error-rate-limited',
      '/errors#error-rate-limited',
    ])
      expect(holds(type, answer({ json: { code: 'rate_limited', type: wrong } })), wrong).toBe(
        false,
      );
    // Without a docs_url known, any absolute URI ending in the code's anchor.
    expect(holds({ at: '/body/type', is: { problemType: {} } }, answer())).toBe(true);
  });

  test('status, media type, directives, absence, equality with another place', () => {
    expect(holds({ at: '/status', is: { between: [200, 299] } }, answer({ status: 204 }))).toBe(
      true,
    );
    expect(holds({ at: '/status', is: { oneOf: [404] } }, answer({ status: 410 }))).toBe(false);
    expect(
      holds(
        { at: '/headers/content-type', is: { mediaType: 'application/problem+json' } },
        answer(),
      ),
    ).toBe(true);
    expect(
      holds(
        { at: '/headers/cache-control', is: { directive: 'no-store' } },
        answer({ headers: { 'cache-control': 'private, No-Store' } }),
      ),
    ).toBe(true);
    expect(holds({ at: '/body/decline_code', is: { absent: true } }, answer())).toBe(true);
    expect(
      holds({ at: '/body/status', is: { sameAs: '/status' } }, answer({ json: { status: 429 } })),
    ).toBe(true);
  });

  test('across the answers of requests sent together: distinct orders, exactly one success', () => {
    const success: Condition = { at: '/status', is: { between: [200, 299] } };
    const racers = [
      answer({ status: 201, json: { id: 'ord_1' } }),
      answer({ status: 200, json: { id: 'ord_1' } }),
      answer({ status: 409, json: { code: 'idempotency_conflict' } }),
    ];
    const oneOrder: Condition = { distinct: '/body/id', among: success, min: 1, max: 1 };
    expect(holds(oneOrder, racers)).toBe(true);
    expect(holds(oneOrder, [...racers, answer({ status: 201, json: { id: 'ord_2' } })])).toBe(
      false,
    );
    expect(holds({ count: success, min: 1, max: 1 }, racers)).toBe(false);
    expect(describeCondition(oneOrder)).toBe(
      'exactly 1 distinct id among the answers where the status is 2xx',
    );
  });

  test("an item of a list, by a member of it: another order's shipment listed", () => {
    const listsIt: Condition = {
      at: '/body/data',
      is: { hasItem: { at: '/id', is: { equals: 'shp_1' } } },
    };
    expect(holds(listsIt, answer({ json: { data: [{ id: 'shp_2' }, { id: 'shp_1' }] } }))).toBe(
      true,
    );
    expect(holds(listsIt, answer({ json: { data: [{ id: 'shp_2' }] } }))).toBe(false);
    // Not a list, or items without the member: nothing listed.
    expect(holds(listsIt, answer({ json: { data: { id: 'shp_1' } } }))).toBe(false);
    expect(holds(listsIt, answer({ json: { data: ['shp_1'] } }))).toBe(false);
    expect(describeCondition({ not: listsIt })).toBe('not (data has an item whose id is "shp_1")');
  });

  test('own members only: a body cannot reach the prototype', () => {
    const evil = answer({ json: JSON.parse('{"__proto__": {"x": 1}, "a": {}}') });
    expect(answerAt(evil, '/body/a/constructor')).toBeUndefined();
    expect(answerAt(evil, '/body/__proto__/x')).toBe(1);
    expect(answerAt(answer({ json: [1, 2] }), '/body/length')).toBeUndefined();
  });
});
