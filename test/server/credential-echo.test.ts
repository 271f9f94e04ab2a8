import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import {
  API,
  basicAuth,
  CONTROL_TOKEN,
  expectProblemShape,
  harness,
  orderBody,
} from './support/harness.js';

const withControl = await buildApp({ controlToken: CONTROL_TOKEN });
const withoutControl = await buildApp({});
afterAll(() => Promise.all([withControl.close(), withoutControl.close()]));
const h = harness(withControl);

const TOKEN = `odp_at_${'A'.repeat(40)}`;
const SECRET = `odp_test_sk_${'B'.repeat(40)}`;
const TOKEN_IN_BODY = `odp_at_${'E'.repeat(40)}`;

/** Requests once measured to echo or take a credential, each kept as a regression test. */
describe('credentials are never echoed and always refused in URLs', () => {
  it.each([
    [`${API}/orders/${TOKEN}`, TOKEN],
    [`${API}/orders/${encodeURIComponent(TOKEN).replaceAll('_', '%5F')}`, TOKEN],
    [`${API}/no-such-route/${SECRET}`, SECRET],
    [`/__controlx/${SECRET}`, SECRET],
    [`/__control/${TOKEN}`, TOKEN],
    [`/__control/accounts/${CONTROL_TOKEN}`, CONTROL_TOKEN],
    [`${API}/orders/${CONTROL_TOKEN}`, CONTROL_TOKEN],
  ])('%s: 400 credentials_in_url, the path kept, the secret redacted', async (url, secret) => {
    for (const app of [withControl, withoutControl]) {
      const reply = await app.inject({ method: 'GET', url, headers: { 'x-control-token': 'x' } });
      // A server without a control API knows no control token to look for: only key shapes.
      if (app === withoutControl && secret === CONTROL_TOKEN) continue;
      expect(reply.statusCode, `${url}`).toBe(400);
      expect(reply.json().code).toBe('credentials_in_url');
      expect(reply.body).not.toContain(secret);
      expect(reply.body).not.toContain(secret.replaceAll('_', '%5F'));
      expect(reply.json().instance).toMatch(/\[redacted\]/);
    }
  });

  it('the control API still takes Access Key IDs in its own paths', async () => {
    const partner = await h.partner();
    const reply = await h.control('POST', `/keys/${partner.key.access_key_id}/end-probation`);
    expect(reply.status).toBe(204);
  });

  it.each(['', 'a', 'ab', 'abc'])(
    'Basic credentials (base64) in a path, after a segment %j, are refused and redacted too',
    async (segment) => {
      const basic = basicAuth(`odp_test_ak_${'C'.repeat(24)}`, SECRET).slice('Basic '.length);
      const url = `${API}/orders/${segment}${segment === '' ? '' : '/'}${basic}`;
      const reply = await withControl.inject({ method: 'GET', url });
      expect(reply.statusCode).toBe(400);
      expect(reply.json().code).toBe('credentials_in_url');
      expect(reply.body).not.toContain(basic);
    },
  );
});

describe('a Secret Key in any body, escaped or not, with any method, is refused before any effect', () => {
  it('cancel with a \\u005f-escaped secret in its body: 422 and the order stays', async () => {
    const partner = await h.partner();
    const order = await h.placeOrder(partner);
    const escaped = SECRET.replaceAll('_', '\\u005f');
    const reply = await h.api('POST', `/orders/${order.body.id}/cancel`, {
      token: partner.token,
      payload: `{"reason":"${escaped}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblemShape(reply, 'validation_failed', 422);
    const after = await h.api('GET', `/orders/${order.body.id}`, { token: partner.token });
    expect(after.body.status).toBe('received');
  });

  it.each(['GET', 'HEAD', 'DELETE'] as const)(
    '%s with a %%5F-escaped secret: 422',
    async (method) => {
      const partner = await h.partner();
      const reply = await h.api(
        method,
        method === 'DELETE' ? '/webhook-endpoints/we_x' : '/account',
        {
          token: partner.token,
          payload: `note=${SECRET.replaceAll('_', '%5F')}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      );
      expect(reply.status).toBe(422);
    },
  );

  it.each([
    ['an access token', () => TOKEN_IN_BODY],
    ['the control token', () => CONTROL_TOKEN],
    ['Basic credentials', () => basicAuth(`odp_test_ak_${'D'.repeat(24)}`, SECRET).slice(6)],
  ])('%s in an order body: 422, nothing placed, nothing echoed', async (_, secret) => {
    const partner = await h.partner();
    const reply = await h.api('POST', '/orders', {
      token: partner.token,
      idempotencyKey: `k-${secret().length}`,
      body: orderBody({ external_id: secret() }),
    });
    expectProblemShape(reply, 'validation_failed', 422);
    expect(reply.raw.body).not.toContain(secret());
    const list = await h.api('GET', '/orders', { token: partner.token });
    expect(list.body.data).toEqual([]);
  });

  it('an access token in a webhook endpoint URL (JSON-escaped): 422, no endpoint made', async () => {
    const partner = await h.partner();
    const url = `https://example.com/hook?t=${TOKEN_IN_BODY}`.replaceAll('_', '\\u005f');
    const reply = await h.api('POST', '/webhook-endpoints', {
      token: partner.token,
      payload: `{"url":"${url}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblemShape(reply, 'validation_failed', 422);
    const list = await h.api('GET', '/webhook-endpoints', { token: partner.token });
    expect(list.body.data).toEqual([]);
  });
});
