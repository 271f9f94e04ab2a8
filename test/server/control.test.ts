import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import { FEATURES } from '../../server/control/capabilities.js';
import { CONTROL_TOKEN, expectProblemShape, harness } from './support/harness.js';

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

describe('control protocol (contract §3)', () => {
  it('401 problem+json without the right X-Control-Token, unknown control paths included', async () => {
    for (const headers of [
      {},
      { 'x-control-token': 'wrong' },
      { 'x-control-token': `${CONTROL_TOKEN}x` },
    ]) {
      for (const url of ['/__control/capabilities', '/__control/nothing-here']) {
        const reply = await app.inject({ method: 'GET', url, headers });
        expect(reply.statusCode).toBe(401);
        expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(reply.json().code).toBe('unauthorized');
      }
    }
  });

  it('capabilities: protocol 1, all nine features and the charges addition', async () => {
    const reply = await h.control('GET', '/capabilities');
    expect(reply.body).toEqual({ protocol: '1', features: [...FEATURES] });
    expect(FEATURES).toHaveLength(10);
    expect(FEATURES).toContain('charges');
  });

  it('accounts: 201 with the defaults, GET and PATCH merge nested settings', async () => {
    const created = await h.control('POST', '/accounts');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^acct_/),
      test_mode: true,
      live_access: false,
      suspended: false,
      incomplete: false,
      service: 'normal',
      billing: { method: 'invoice' },
      limits: { max_order_value: 100_000, max_orders_per_day: 50 },
    });
    const patched = await h.control('PATCH', `/accounts/${created.body.id}`, {
      limits: { max_orders_per_day: 3 },
      billing: { method: 'card' },
    });
    expect(patched.body.limits).toEqual({ max_order_value: 100_000, max_orders_per_day: 3 });
    expect(patched.body.billing.method).toBe('card');
    const { now: _readAt, ...read } = (await h.control('GET', `/accounts/${created.body.id}`)).body;
    const { now: _patchedAt, ...expected } = patched.body;
    expect(read).toEqual(expected);
  });

  it('refuses bad settings with 422 problems and unknown accounts with 404', async () => {
    const bad = await h.control('POST', '/accounts', { service: 'sleepy', colour: 'red' });
    const problem = expectProblemShape(bad, 'validation_failed', 422);
    expect(problem.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/colour',
      '/service',
    ]);
    expectProblemShape(await h.control('PATCH', '/accounts/acct_missing', {}), 'not_found', 404);
    expectProblemShape(
      await h.control('POST', '/accounts/acct_missing/keys', {}),
      'not_found',
      404,
    );
    expectProblemShape(await h.control('POST', '/keys/odp_test_ak_missing/roll'), 'not_found', 404);
  });

  it('the clock is per account and only moves forward', async () => {
    const a = (await h.account()).id;
    const b = (await h.account()).id;
    const aBefore = Date.parse((await h.control('GET', `/accounts/${a}`)).body.now);
    const before = Date.parse((await h.control('GET', `/accounts/${b}`)).body.now);
    const now = await h.advance(a, 86_400);
    // Measured against each account's own clock, not the wall clock: a slow machine cannot fail it.
    expect(Date.parse(now) - aBefore).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse((await h.control('GET', `/accounts/${b}`)).body.now) - before).toBeLessThan(
      86_400_000,
    );
    expectProblemShape(
      await h.control('POST', `/accounts/${a}/clock`, { advance_seconds: -5 }),
      'validation_failed',
      422,
    );
  });

  it('faults: validated, 201 with the fault', async () => {
    const { id } = await h.account();
    const reply = await h.control('POST', `/accounts/${id}/faults`, {
      method: 'post',
      path: '/api/on-demand/v1/orders',
      when: 'after_commit',
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      method: 'POST',
      path: '/orders',
      status: 500,
      when: 'after_commit',
      times: 1,
    });
    expectProblemShape(
      await h.control('POST', `/accounts/${id}/faults`, {
        method: 'POST',
        path: '/orders',
        status: 502,
      }),
      'validation_failed',
      422,
    );
  });

  it("a key's Secret Key is shown once, in the creation answer only", async () => {
    const { id } = await h.account();
    const key = await h.key(id);
    const settings = await h.control('GET', `/accounts/${id}`);
    expect(JSON.stringify(settings.body)).not.toContain(key.secret_key);
  });
});

describe('without a control token', () => {
  it('mounts no control API at all', async () => {
    const bare = await buildApp({});
    onTestFinished(() => bare.close());
    const reply = await bare.inject({
      method: 'GET',
      url: '/__control/capabilities',
      headers: { 'x-control-token': '' },
    });
    expect(reply.statusCode).toBe(404);
  });
});
