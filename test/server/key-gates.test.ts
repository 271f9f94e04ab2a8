import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('IP allowlist (§5.9)', () => {
  it('whoami reports the caller address as the API sees it (contract §3)', async () => {
    const reply = await app.inject({
      method: 'GET',
      url: '/__control/whoami',
      headers: { 'x-control-token': CONTROL_TOKEN },
      remoteAddress: '::ffff:203.0.113.9',
    });
    expect(reply.json()).toEqual({ ip: '203.0.113.9' });
  });

  it('refuses token requests and calls from other addresses with 403 ip_not_allowed', async () => {
    const { id } = await h.account();
    const key = await h.key(id, { ip_allowlist: ['10.1.0.0/16', '2001:db8::1'] });
    const refused = await h.tokenRequest(key, undefined, { remoteAddress: '10.2.0.1' });
    expect(expectProblemShape(refused, 'ip_not_allowed', 403).error).toBe('unauthorized_client');
    const token = await h.token(key, undefined, '10.1.200.3');
    expect((await h.api('GET', '/account', { token, remoteAddress: '10.1.0.9' })).status).toBe(200);
    expect((await h.api('GET', '/account', { token, remoteAddress: '2001:db8::1' })).status).toBe(
      200,
    );
    const elsewhere = await h.api('GET', '/account', { token, remoteAddress: '192.0.2.1' });
    expectProblemShape(elsewhere, 'ip_not_allowed', 403);
  });

  it('refuses a malformed allowlist entry at key creation', async () => {
    const { id } = await h.account();
    const reply = await h.control('POST', `/accounts/${id}/keys`, {
      ip_allowlist: ['10.0.0.0/33'],
    });
    expectProblemShape(reply, 'validation_failed', 422);
    expect(reply.body.errors[0].pointer).toBe('/ip_allowlist/0');
  });
});

describe('live and test access (§5.10)', () => {
  it('a live key before live access is switched on gets 403 api_not_enabled', async () => {
    const { id } = await h.account({ live_access: false });
    const live = await h.key(id, { mode: 'live' });
    expect(live.access_key_id).toMatch(/^odp_live_ak_[0-9A-Za-z]{24,}$/);
    expect(live.secret_key).toMatch(/^odp_live_sk_[0-9A-Za-z]{24,}$/);
    expectProblemShape(await h.tokenRequest(live), 'api_not_enabled', 403);
    await h.patchAccount(id, { live_access: true });
    const token = await h.token(live);
    expect((await h.api('GET', '/account', { token })).body.livemode).toBe(true);
    // Switched off again: the token stops working too.
    await h.patchAccount(id, { live_access: false });
    expectProblemShape(await h.api('GET', '/account', { token }), 'api_not_enabled', 403);
  });

  it('a test key when test mode is off gets 403 sandbox_not_enabled', async () => {
    const { id } = await h.account();
    const key = await h.key(id);
    const token = await h.token(key);
    await h.patchAccount(id, { test_mode: false });
    expectProblemShape(await h.tokenRequest(key), 'sandbox_not_enabled', 403);
    expectProblemShape(await h.api('GET', '/account', { token }), 'sandbox_not_enabled', 403);
  });
});

describe('keys (§3)', () => {
  it('up to 10 keys may be active at once; a revoked one frees a place', async () => {
    const { id } = await h.account();
    const keys = [];
    for (let i = 0; i < 10; i++) keys.push(await h.key(id));
    expectProblemShape(await h.control('POST', `/accounts/${id}/keys`, {}), 'limit_exceeded', 422);
    await h.control('POST', `/keys/${keys[0]?.access_key_id}/revoke`);
    expect((await h.control('POST', `/accounts/${id}/keys`, {})).status).toBe(201);
  });

  it('a live key cannot be rolled (409); a test key can', async () => {
    const { id } = await h.account({ live_access: true });
    const live = await h.key(id, { mode: 'live' });
    expect((await h.control('POST', `/keys/${live.access_key_id}/roll`)).status).toBe(409);
    const test = await h.key(id);
    expect((await h.control('POST', `/keys/${test.access_key_id}/roll`)).status).toBe(200);
  });
});
