import { describe, expect, test } from 'vitest';
import { problemFieldViolations, problemViolations } from '../../lib/check/assert/problem.js';
import type { HttpResponse } from '../../lib/check/context-api.js';

function response(
  status: number,
  body: unknown,
  contentType = 'application/problem+json',
): HttpResponse {
  const headers: Record<string, string> = { 'content-type': contentType };
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    requestPath: '/api/on-demand/v1/orders?limit=2',
    status,
    headers,
    header: (name) => headers[name.toLowerCase()],
    text,
    json: typeof body === 'string' ? undefined : body,
    exchange: 7,
    durationMs: 1,
  };
}

const good = {
  type: 'https://docs.example.com/errors#error-insufficient-scope',
  title: 'Insufficient scope',
  status: 403,
  detail: 'needs orders:write',
  instance: '/api/on-demand/v1/orders',
  code: 'insufficient_scope',
  request_id: 'req_1',
  required_scope: 'orders:write',
};

describe('problemViolations', () => {
  test('a matching problem passes', () => {
    expect(
      problemViolations(response(403, good), { status: 403, code: 'insufficient_scope' }),
    ).toEqual([]);
  });

  test('wrong status and code are each a violation pointing at the exchange; media type is left to the ERR rules', () => {
    const found = problemViolations(response(400, { ...good, code: 'other' }, 'application/json'), {
      status: 403,
      code: 'insufficient_scope',
    });
    expect(found.map((v) => v.code)).toEqual(['STATUS', 'VALUE']);
    expect(found.every((v) => v.exchange === 7)).toBe(true);
  });

  test('a body that is not JSON is a NOT_JSON violation, not a crash', () => {
    const found = problemViolations(response(403, '<html>oops', 'text/html'), {
      status: 403,
      code: 'x',
    });
    expect(found.map((v) => v.code)).toContain('NOT_JSON');
  });
});

describe('problemFieldViolations', () => {
  test('a complete problem passes and teaches the docs URL', () => {
    const { violations, docsUrl } = problemFieldViolations(
      response(403, good),
      '/api/on-demand/v1/orders?limit=2',
      undefined,
    );
    expect(violations).toEqual([]);
    expect(docsUrl).toBe('https://docs.example.com');
  });

  test('each broken field is named by its pointer', () => {
    const broken = {
      ...good,
      type: 'https://docs.example.com/errors#error-insufficient_scope',
      status: 400,
      instance: '/elsewhere',
      request_id: '',
      decline_code: 'x',
    };
    delete (broken as Partial<typeof good>).required_scope;
    const { violations } = problemFieldViolations(
      response(403, broken),
      '/api/on-demand/v1/orders',
      'https://docs.example.com',
    );
    expect(violations.map((v) => v.pointer).sort()).toEqual(
      [
        '/body/decline_code',
        '/body/instance',
        '/body/request_id',
        '/body/required_scope',
        '/body/status',
        '/body/type',
      ].sort(),
    );
  });
});
