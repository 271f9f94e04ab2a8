import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import {
  basicAuth,
  CONTROL_TOKEN,
  expectProblemShape,
  harness,
  type Key,
} from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('POST /oauth/token (§4, §5)', () => {
  let accountId: string;
  let key: Key;
  beforeAll(async () => {
    accountId = (await h.account()).id;
    key = await h.key(accountId);
  });

  it('answers the §2 access token response with no-store and no refresh token', async () => {
    const reply = await h.tokenRequest(key);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      access_token: expect.stringMatching(/^odp_at_[0-9A-Za-z]{24,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'catalog:read orders:read orders:write webhooks:manage',
    });
    expect(reply.body).not.toHaveProperty('refresh_token');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers.pragma).toBe('no-cache');
  });

  it('grants a subset of the key scopes asked for with scope (§5.7)', async () => {
    const reply = await h.tokenRequest(
      key,
      'grant_type=client_credentials&scope=orders%3Aread+catalog%3Aread',
    );
    expect(reply.status).toBe(200);
    expect(reply.body.scope).toBe('orders:read catalog:read');
  });

  it('refuses a scope the key lacks with 403 insufficient_scope and error=invalid_scope', async () => {
    const narrow = await h.key(accountId, { scopes: ['orders:read'] });
    const reply = await h.tokenRequest(narrow, 'grant_type=client_credentials&scope=orders:write');
    const body = expectProblemShape(reply, 'insufficient_scope', 403);
    expect(body.required_scope).toBe('orders:write');
    expect(body.error).toBe('invalid_scope');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('refuses bad Basic credentials with 401, WWW-Authenticate: Basic and error=invalid_client', async () => {
    for (const authorization of [
      basicAuth(key.access_key_id, `${key.secret_key}x`),
      basicAuth('odp_test_ak_unknownunknownunknown00', key.secret_key),
      'Basic !!!',
      undefined,
    ]) {
      const reply = await h.api('POST', '/oauth/token', {
        payload: 'grant_type=client_credentials',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization === undefined ? {} : { authorization }),
        },
      });
      const body = expectProblemShape(reply, 'unauthorized', 401);
      expect(body.error).toBe('invalid_client');
      expect(reply.headers['www-authenticate']).toMatch(/^Basic realm="/);
    }
  });

  it('form-decodes Basic credentials after base64 and splits on the first colon (RFC 6749 §2.3.1)', async () => {
    // Every character percent-encoded, `:` encoded too: a client library that encodes is understood.
    const encode = (s: string) =>
      [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const reply = await h.api('POST', '/oauth/token', {
      payload: 'grant_type=client_credentials',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(encode(key.access_key_id), encode(key.secret_key)),
      },
    });
    expect(reply.status).toBe(200);
  });

  it('requires grant_type=client_credentials: 422 validation_failed with RFC 6749 error', async () => {
    const missing = await h.tokenRequest(key, 'scope=orders:read');
    expect(expectProblemShape(missing, 'validation_failed', 422).error).toBe('invalid_request');
    const wrong = await h.tokenRequest(key, 'grant_type=password');
    expect(expectProblemShape(wrong, 'validation_failed', 422).error).toBe(
      'unsupported_grant_type',
    );
  });

  it('refuses a Secret Key in the body (§5.4) and issues no token', async () => {
    const inForm = await h.tokenRequest(
      key,
      `grant_type=client_credentials&client_id=${key.access_key_id}&client_secret=${key.secret_key}`,
    );
    const body = expectProblemShape(inForm, 'validation_failed', 422);
    expect(body.detail).toMatch(/Basic/);
    expect(JSON.stringify(body)).not.toContain(key.secret_key);
    const noBasic = await h.api('POST', '/oauth/token', {
      payload: JSON.stringify({ secret: key.secret_key }),
      headers: { 'content-type': 'application/json' },
    });
    expectProblemShape(noBasic, 'validation_failed', 422);
  });

  it('needs a form body: 415 otherwise', async () => {
    const reply = await h.tokenRequest(key, '{"grant_type":"client_credentials"}', {
      headers: { 'content-type': 'application/json' },
    });
    expect(expectProblemShape(reply, 'unsupported_media_type', 415).error).toBe('invalid_request');
  });

  it('errors are problem+json, or application/json for a client that accepts only that (RFC 6749 §5.2)', async () => {
    const bad = { ...key, secret_key: 'odp_test_sk_wrongwrongwrongwrongwrong' };
    const plain = await h.tokenRequest(bad, undefined, { headers: { accept: 'application/json' } });
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.body).toMatchObject({
      code: 'unauthorized',
      error: 'invalid_client',
      status: 401,
    });
    const both = await h.tokenRequest(bad, undefined, {
      headers: { accept: 'application/problem+json, application/json' },
    });
    expect(both.headers['content-type']).toMatch(/^application\/problem\+json/);
    // Elsewhere in the API errors are always problem+json (§7).
    const api = await h.api('GET', '/account', { headers: { accept: 'application/json' } });
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('refuses a repeated form parameter (RFC 6749 §3.2)', async () => {
    const reply = await h.tokenRequest(
      key,
      'grant_type=client_credentials&grant_type=client_credentials',
    );
    expectProblemShape(reply, 'validation_failed', 422);
  });

  it("gives no token to a revoked key, or to a rolled key's old secret (§3)", async () => {
    const rolled = await h.key(accountId);
    const { secret_key } = (await h.control('POST', `/keys/${rolled.access_key_id}/roll`)).body;
    expectProblemShape(await h.tokenRequest(rolled), 'unauthorized', 401);
    expect((await h.tokenRequest({ ...rolled, secret_key })).status).toBe(200);
    const revoked = await h.key(accountId);
    await h.control('POST', `/keys/${revoked.access_key_id}/revoke`);
    expectProblemShape(await h.tokenRequest(revoked), 'unauthorized', 401);
  });
});

describe('token rate limit (§5.5, §8)', () => {
  it('allows 20 token requests a minute per key, then 429 with Retry-After and RateLimit headers', async () => {
    const { id } = await h.account();
    const key = await h.key(id);
    const other = await h.key(id);
    await h.startOfWindow(id);
    for (let i = 0; i < 20; i++) {
      const reply = await h.tokenRequest(key);
      expect(reply.status).toBe(200);
      expect(reply.headers['ratelimit-policy']).toBe('"token";q=20;w=60');
      expect(reply.headers.ratelimit).toMatch(new RegExp(`^"token";r=${19 - i};t=\\d+$`));
    }
    const limited = await h.tokenRequest(key);
    const body = expectProblemShape(limited, 'rate_limited', 429);
    expect(body.error).toBe('temporarily_unavailable');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    // Per key: another key of the same account is unaffected.
    expect((await h.tokenRequest(other)).status).toBe(200);
    // A new fixed window opens once the account clock passes Retry-After.
    await h.advance(id, retryAfter);
    expect((await h.tokenRequest(key)).status).toBe(200);
  });
});
