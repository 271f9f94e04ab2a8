import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness, orderBody } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

/** §5 Scopes: every route and the scope it needs. */
const ROUTES: Array<[method: string, path: string, scope: string]> = [
  ['GET', '/catalog/products', 'catalog:read'],
  ['GET', '/catalog/products/MUG-WHT-11OZ', 'catalog:read'],
  ['POST', '/quotes', 'catalog:read'],
  ['GET', '/quotes/quo_x', 'catalog:read'],
  ['GET', '/orders', 'orders:read'],
  ['GET', '/orders/ord_x', 'orders:read'],
  ['GET', '/orders/by-external-id/abc', 'orders:read'],
  ['GET', '/orders/ord_x/shipments', 'orders:read'],
  ['GET', '/orders/ord_x/invoice', 'orders:read'],
  ['POST', '/orders', 'orders:write'],
  ['POST', '/orders/ord_x/cancel', 'orders:write'],
  ['GET', '/webhook-endpoints', 'webhooks:manage'],
  ['POST', '/webhook-endpoints', 'webhooks:manage'],
  ['GET', '/webhook-endpoints/we_x', 'webhooks:manage'],
  ['DELETE', '/webhook-endpoints/we_x', 'webhooks:manage'],
  ['GET', '/events', 'webhooks:manage'],
  ['GET', '/events/evt_x', 'webhooks:manage'],
];

const ALL = ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'];

describe('scopes (§5.7, §5.8)', () => {
  it.each(ROUTES)(
    '%s %s needs %s: 403 insufficient_scope with required_scope and a challenge',
    async (method, path, scope) => {
      const { id } = await h.account();
      const key = await h.key(id, { scopes: ALL.filter((s) => s !== scope) });
      const token = await h.token(key);
      const reply = await h.api(method, path, { token, idempotencyKey: 'k', body: orderBody() });
      const body = expectProblemShape(reply, 'insufficient_scope', 403);
      expect(body.required_scope).toBe(scope);
      expect(reply.headers['www-authenticate']).toMatch(
        new RegExp(
          `^Bearer realm="[^"]+", error="insufficient_scope", error_description="[^"]+", scope="${scope}"$`,
        ),
      );
      // With only that scope the scope check passes (whatever the route then says).
      const only = await h.token(await h.key(id, { scopes: [scope] }));
      const allowed = await h.api(method, path, {
        token: only,
        idempotencyKey: 'k',
        body: orderBody(),
      });
      expect(allowed.body?.code).not.toBe('insufficient_scope');
    },
  );

  it('a token narrowed with scope= is held to the narrower set (§5.7)', async () => {
    const partner = await h.partner();
    const narrow = await h.token(partner.key, 'catalog:read');
    expect((await h.api('GET', '/catalog/products', { token: narrow })).status).toBe(200);
    expectProblemShape(await h.api('GET', '/orders', { token: narrow }), 'insufficient_scope', 403);
  });

  it('GET /account works with any valid token, whatever its scopes (contract §2)', async () => {
    const { id } = await h.account();
    const key = await h.key(id, { scopes: [] });
    const reply = await h.api('GET', '/account', { token: await h.token(key) });
    expect(reply.status).toBe(200);
    expect(reply.body.scopes).toEqual([]);
  });

  it('the only 403 without a challenge are the non-scope refusals', async () => {
    const partner = await h.partner({ suspended: true });
    const reply = await h.placeOrder(partner);
    expectProblemShape(reply, 'partner_suspended', 403);
    expect(reply.headers['www-authenticate']).toBeUndefined();
  });
});
