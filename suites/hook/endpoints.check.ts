import type { CheckContext, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { WebhookEndpointSchema } from '../schemas/webhook-endpoint.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import {
  countEndpoints,
  createEndpoint,
  ENDPOINTS_PER_MODE,
} from '../support/webhook-endpoints.js';

/**
 * Fills the key's mode up to five endpoints, each expected to be accepted;
 * answers the ids made. In a partner sandbox that already has endpoints only
 * the missing ones are made (and deleted at the end of the file).
 */
async function fillToFive(ctx: CheckContext, key: Key, what: string): Promise<string[]> {
  const existing = await countEndpoints(ctx, key);
  if (existing === undefined)
    return ctx.notVerifiable('the webhook endpoints of the key could not be listed');
  if (existing >= ENDPOINTS_PER_MODE) {
    return ctx.notVerifiable(`the sandbox already has ${existing} webhook endpoints in this mode`);
  }
  if (existing > 0) ctx.note(`${existing} webhook endpoints existed before the check`);
  const ids: string[] = [];
  for (let n = existing + 1; n <= ENDPOINTS_PER_MODE; n++) {
    const res = await createEndpoint(ctx, key);
    if (expectSuccess(ctx, res, `${what}: webhook endpoint ${n} of ${ENDPOINTS_PER_MODE}`)) {
      ids.push(idOf(res.json as Record<string, unknown>, 'creating a webhook endpoint'));
    }
  }
  return ids;
}

/** Deletes the check's own endpoints at once, so the next check of a partner sandbox finds room. */
async function removeAll(ctx: CheckContext, key: Key, ids: readonly string[]): Promise<void> {
  for (const id of ids) await ctx.api(key).delete(ctx.path('webhookEndpoint', { id }));
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('HOOK-01', async (ctx) => {
  // Section 6: "At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded."
  const { key } = await ordering(ctx);
  const ids = await fillToFive(ctx, key, 'one mode');
  ctx.expectProblem(await createEndpoint(ctx, key), { status: 422, code: 'limit_exceeded' });
  await removeAll(ctx, key, ids);
});

check('HOOK-02', async (ctx) => {
  // Section 2: "Webhook endpoint | Maximum 5 per mode"; section 1: objects belong to one mode.
  const { key: testKey, account } = await ordering(ctx, { live_access: true });
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const liveKey = await ctx.key({ mode: 'live', account });
  await fillToFive(ctx, testKey, 'test mode');
  await fillToFive(ctx, liveKey, 'live mode, with test mode full');
  ctx.expectProblem(await createEndpoint(ctx, liveKey), { status: 422, code: 'limit_exceeded' });
});

check('HOOK-03', async (ctx) => {
  // Section 6, as the contract reads it: deleted webhook endpoints do not count toward the five.
  const { key } = await ordering(ctx);
  const ids = await fillToFive(ctx, key, 'before a delete');
  const victim = ids[0];
  if (victim === undefined) return ctx.notVerifiable("no endpoint of the check's own to delete");
  requireSuccess(
    await ctx.api(key).delete(ctx.path('webhookEndpoint', { id: victim })),
    'deleting an endpoint',
  );
  const replacement = await createEndpoint(ctx, key);
  expectSuccess(ctx, replacement, 'an endpoint in place of a deleted one');
  const extra = (replacement.json as { id?: unknown } | undefined)?.id;
  await removeAll(ctx, key, [...ids.slice(1), ...(typeof extra === 'string' ? [extra] : [])]);
});

check('HOOK-04', async (ctx) => {
  // Section 6: "Both need the scope webhooks:manage"; section 5 rule 8: 403 insufficient_scope with required_scope.
  const { account } = await ordering(ctx);
  const key = await ctx.key({
    scopes: ['catalog:read', 'orders:read', 'orders:write'],
    ...(account ? { account } : {}),
  });
  const client = ctx.api(key);
  const calls = [
    ['GET /webhook-endpoints', () => client.get(ctx.path('webhookEndpoints'))],
    [
      'POST /webhook-endpoints',
      () => client.post(ctx.path('webhookEndpoints'), { url: 'https://hooks.example.com/orders' }),
    ],
    ['GET /events', () => client.get(ctx.path('events'))],
  ] as const;
  for (const [what, call] of calls) {
    const res = await call();
    if (!ctx.expectProblem(res, { status: 403, code: 'insufficient_scope' })) {
      ctx.note(`${what} without webhooks:manage answered ${res.status}`);
      continue;
    }
    ctx.expectEqual(
      '/body/required_scope',
      'webhooks:manage',
      (res.json as { required_scope?: unknown }).required_scope,
      `${what} names the scope it needs`,
    );
  }
});

check('HOOK-05', async (ctx) => {
  // Section 6: methods not shown; contract section 2: POST 201, GET list and one, DELETE 204.
  const { key } = await ordering(ctx);
  const client = ctx.api(key);
  const created = await createEndpoint(ctx, key);
  ctx.expectStatus(created, 201);
  const endpoint = ctx.expectShape(created.json, WebhookEndpointSchema, '/body', created.exchange);
  if (!endpoint) return;
  const one = await client.get(ctx.path('webhookEndpoint', { id: endpoint.id }));
  if (ctx.expectStatus(one, 200)) {
    ctx.expectEqual(
      '/body/url',
      endpoint.url,
      (one.json as { url?: unknown }).url,
      'GET reads the endpoint created',
    );
  }
  const list = await client.get(ctx.path('webhookEndpoints'), { limit: '100' });
  const listed = ((list.json as { data?: { id?: unknown }[] } | undefined)?.data ?? []).map(
    (e) => e.id,
  );
  ctx.expectTrue(listed.includes(endpoint.id), {
    code: 'STATE',
    pointer: '/body/data',
    expected: endpoint.id,
    received: listed,
    message: 'the endpoint created is not in the list',
    exchange: list.exchange,
  });
  ctx.expectStatus(await client.delete(ctx.path('webhookEndpoint', { id: endpoint.id })), 204);
  ctx.expectProblem(await client.get(ctx.path('webhookEndpoint', { id: endpoint.id })), {
    status: 404,
    code: 'not_found',
  });
});
