import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../lib/client/types.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { NotVerifiable } from '../../lib/violations/harness-error.js';
import { requireSubresourcePath } from '../../suites/support/order-subresource.js';
import { requireQuoteBodyTaken } from '../../suites/support/quote-refusal.js';
import { endpointDialectGap } from '../../suites/support/webhook-endpoints.js';

function answer(status: number, body?: unknown): HttpResponse {
  return {
    requestPath: '/api/on-demand/v1/webhook-endpoints',
    status,
    headers: {},
    header: () => undefined,
    text: body === undefined ? '' : JSON.stringify(body),
    json: body,
    exchange: 7,
    durationMs: 1,
  };
}

const ctx = { dialect: REFERENCE_DIALECT, dialectSeen: [] };

// A request the document leaves "not shown" that the target does not take in the
// profile's dialect ends not_verifiable naming the profile field; every other answer is the check's to judge.
describe('endpointDialectGap', () => {
  it('names the operation method on a 404 or 405, never the path the document fixes', () => {
    for (const status of [404, 405]) {
      const gap = endpointDialectGap(ctx, answer(status), 'webhookEndpointCreate', 'creating');
      expect(gap).toBeInstanceOf(NotVerifiable);
      expect(gap?.message).toContain('dialect.operations.webhookEndpointCreate.method');
      expect(gap?.message).not.toContain('dialect.paths');
      expect(gap?.message).toContain('evidence #7');
    }
    // One endpoint's path is the profile's: named beside the method.
    const read = endpointDialectGap(ctx, answer(404), 'webhookEndpointRead', 'reading');
    expect(read?.message).toContain(
      'dialect.operations.webhookEndpointRead.method (or dialect.paths.webhookEndpoint)',
    );
  });

  it('names the endpoint body on a 422 validation_failed to a creation only', () => {
    const refused = answer(422, { code: 'validation_failed' });
    expect(
      endpointDialectGap(ctx, refused, 'webhookEndpointCreate', 'creating')?.message,
    ).toContain('dialect.webhookEndpointBody');
    expect(endpointDialectGap(ctx, refused, 'webhookEndpointList', 'listing')).toBeUndefined();
  });

  it('leaves a success, a scope refusal and the limit to the check', () => {
    expect(endpointDialectGap(ctx, answer(201, {}), 'webhookEndpointCreate', 'x')).toBeUndefined();
    const scope = answer(403, { code: 'insufficient_scope' });
    expect(endpointDialectGap(ctx, scope, 'webhookEndpointCreate', 'x')).toBeUndefined();
    const limit = answer(422, { code: 'limit_exceeded' });
    expect(endpointDialectGap(ctx, limit, 'webhookEndpointCreate', 'x')).toBeUndefined();
  });
});

describe('requireQuoteBodyTaken', () => {
  const refused = answer(422, { code: 'validation_failed' });

  it('stops not_verifiable naming dialect.quoteBody on a 422 validation_failed the probe cannot explain', () => {
    expect(() => requireQuoteBodyTaken(ctx, refused, 'a quote')).toThrow(NotVerifiable);
    expect(() => requireQuoteBodyTaken(ctx, refused, 'a quote')).toThrow(/dialect\.quoteBody/);
  });

  it("leaves the 422 to the check when the probe saw the target take the quote body: the refusal is the target's", () => {
    const seen = { dialectSeen: ['quoteBody' as const] };
    expect(() => requireQuoteBodyTaken(seen, refused, 'a quote')).not.toThrow();
    // What the probe saw of the order body says nothing of the quote's.
    expect(() =>
      requireQuoteBodyTaken({ dialectSeen: ['orderBody' as const] }, refused, 'a quote'),
    ).toThrow(/dialect\.quoteBody/);
  });

  it('leaves any other answer to the check', () => {
    for (const res of [answer(201, {}), answer(403, { code: 'partner_suspended' }), answer(503)]) {
      expect(() => requireQuoteBodyTaken(ctx, res, 'a quote')).not.toThrow();
    }
  });
});

describe('requireSubresourcePath', () => {
  it('names the path of shipments or invoice on a 404 or 405', () => {
    expect(() => requireSubresourcePath(answer(404), 'shipments', 'GET shipments')).toThrow(
      /dialect\.paths\.shipments/,
    );
    expect(() => requireSubresourcePath(answer(405), 'invoice', 'GET invoice')).toThrow(
      /dialect\.paths\.invoice/,
    );
  });

  it('leaves a success and a refusal to the check', () => {
    for (const status of [200, 403, 500]) {
      expect(() => requireSubresourcePath(answer(status, {}), 'invoice', 'x')).not.toThrow();
    }
  });
});
