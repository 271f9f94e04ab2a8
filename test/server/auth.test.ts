import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('bearer authentication (§5)', () => {
  it('401 unauthorized without a Bearer header, with a challenge that names no error (RFC 6750 §3)', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }]) {
      const reply = await h.api('GET', '/account', { headers });
      expectProblemShape(reply, 'unauthorized', 401);
      expect(reply.headers['www-authenticate']).toBe('Bearer realm="partner-ordering-api"');
    }
  });

  it('401 invalid_token for an unknown or malformed token, with error="invalid_token"', async () => {
    for (const token of ['odp_at_000000000000000000000000000000', 'nonsense', 'odp_at_short']) {
      const reply = await h.api('GET', '/account', { token });
      expectProblemShape(reply, 'invalid_token', 401);
      expect(reply.headers['www-authenticate']).toMatch(
        /^Bearer realm="[^"]+", error="invalid_token"/,
      );
    }
  });

  it('a token is valid while at most 3600 seconds old, then 401 token_expired (§5.2, contract §2)', async () => {
    const partner = await h.partner();
    await h.advance(partner.accountId, 3599);
    expect((await h.api('GET', '/account', { token: partner.token })).status).toBe(200);
    await h.advance(partner.accountId, 2);
    const reply = await h.api('GET', '/account', { token: partner.token });
    expectProblemShape(reply, 'token_expired', 401);
    expect(reply.headers['www-authenticate']).toContain('error="invalid_token"');
    // A new token works again (§5.2 remedy).
    expect((await h.api('GET', '/account', { token: await h.token(partner.key) })).status).toBe(
      200,
    );
  });

  it('revoking a key stops its tokens at once: invalid_token (§3, §5.3)', async () => {
    const partner = await h.partner();
    expect((await h.control('POST', `/keys/${partner.key.access_key_id}/revoke`)).status).toBe(204);
    expectProblemShape(
      await h.api('GET', '/account', { token: partner.token }),
      'invalid_token',
      401,
    );
  });

  it('rolling a test key stops the old secret and every token made with it (§3)', async () => {
    const partner = await h.partner();
    const rolled = await h.control('POST', `/keys/${partner.key.access_key_id}/roll`);
    expect(rolled.status).toBe(200);
    expect(rolled.body.secret_key).toMatch(/^odp_test_sk_[0-9A-Za-z]{24,}$/);
    expect(rolled.body.secret_key).not.toBe(partner.key.secret_key);
    expectProblemShape(
      await h.api('GET', '/account', { token: partner.token }),
      'invalid_token',
      401,
    );
    const fresh = await h.token({ ...partner.key, secret_key: rolled.body.secret_key });
    expect((await h.api('GET', '/account', { token: fresh })).status).toBe(200);
  });

  it('tokens of other keys survive a roll or revoke', async () => {
    const partner = await h.partner();
    const other = await h.key(partner.accountId);
    await h.control('POST', `/keys/${other.access_key_id}/revoke`);
    expect((await h.api('GET', '/account', { token: partner.token })).status).toBe(200);
  });
});

describe('credentials in the URL (§5.6)', () => {
  it('400 credentials_in_url for a Secret Key, token or Access Key ID in the URL, before authentication', async () => {
    const partner = await h.partner();
    const urls = [
      `/account?secret=${partner.key.secret_key}`,
      `/account?access_token=${partner.token}`,
      `/account?token=abc`,
      `/orders?key=${partner.key.access_key_id}`,
      `/orders/${partner.token}`,
      `/account?x=${encodeURIComponent(partner.key.secret_key).replaceAll('_', '%5F')}`,
      `/oauth/token?client_secret=abc`,
    ];
    for (const url of urls) {
      for (const method of ['GET', 'POST']) {
        const reply = await h.api(method, url, { token: partner.token });
        const body = expectProblemShape(reply, 'credentials_in_url', 400);
        expect(body.instance).not.toContain('?');
      }
    }
  });

  it('ordinary query strings pass', async () => {
    const partner = await h.partner();
    expect((await h.api('GET', '/orders?limit=5', { token: partner.token })).status).toBe(200);
  });
});
