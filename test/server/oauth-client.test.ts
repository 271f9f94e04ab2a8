import * as oauth from 'oauth4webapi';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.js';
import { API, CONTROL_TOKEN } from './support/harness.js';

const server = await startServer({ port: 0, controlToken: CONTROL_TOKEN });
afterAll(() => server.close());

async function control(path: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${server.origin}/__control${path}`, {
    method: 'POST',
    headers: { 'x-control-token': CONTROL_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, string>;
}

const as: oauth.AuthorizationServer = {
  issuer: server.origin,
  token_endpoint: `${server.origin}${API}/oauth/token`,
};
const insecure = { [oauth.allowInsecureRequests]: true };

describe('a standard OAuth 2.0 client library (oauth4webapi) against the token endpoint', () => {
  it('gets a token with client credentials (client_secret_basic) and uses it', async () => {
    const account = await control('/accounts', {});
    const key = await control(`/accounts/${account.id}/keys`, {
      scopes: ['orders:read', 'catalog:read'],
    });
    const client: oauth.Client = { client_id: key.access_key_id as string };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(key.secret_key as string),
      new URLSearchParams({ scope: 'orders:read' }),
      insecure,
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result.token_type).toBe('bearer');
    expect(result.expires_in).toBe(3600);
    expect(result.scope).toBe('orders:read');
    expect(result.refresh_token).toBeUndefined();
    const orders = await fetch(`${server.origin}${API}/orders`, {
      headers: { authorization: `Bearer ${result.access_token}` },
    });
    expect(orders.status).toBe(200);
  });

  it('reads our errors as OAuth errors: bad secret and a scope the key lacks', async () => {
    const account = await control('/accounts', {});
    const key = await control(`/accounts/${account.id}/keys`, { scopes: ['orders:read'] });
    const client: oauth.Client = { client_id: key.access_key_id as string };

    const badSecret = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(`${key.secret_key}:+%`),
      new URLSearchParams(),
      insecure,
    );
    // A 401 with a WWW-Authenticate challenge: the library surfaces the parsed challenge and the response.
    const unauthorized = await oauth
      .processClientCredentialsResponse(as, client, badSecret)
      .catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challengeError = unauthorized as oauth.WWWAuthenticateChallengeError;
    expect(challengeError.status).toBe(401);
    expect(challengeError.cause).toEqual([
      { scheme: 'basic', parameters: { realm: 'partner-ordering-api', charset: 'UTF-8' } },
    ]);
    expect(await challengeError.response.json()).toMatchObject({
      error: 'invalid_client',
      code: 'unauthorized',
    });

    const tooMuch = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(key.secret_key as string),
      new URLSearchParams({ scope: 'orders:write' }),
      insecure,
    );
    const scopeError = await oauth
      .processClientCredentialsResponse(as, client, tooMuch)
      .catch((e: unknown) => e);
    expect(scopeError).toBeInstanceOf(oauth.ResponseBodyError);
    expect(scopeError).toMatchObject({ status: 403, error: 'invalid_scope' });
    expect((scopeError as oauth.ResponseBodyError).cause).toMatchObject({
      code: 'insufficient_scope',
      required_scope: 'orders:write',
    });
  });
});
