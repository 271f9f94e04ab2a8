import type { CheckContext, HttpResponse, Key, NotVerifiable } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, idIn, valueAt, walkList } from '../../lib/check/index.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import {
  countEndpoints,
  createEndpoint,
  deleteEndpoint,
  ENDPOINTS_PER_MODE,
  endpointBody,
  endpointDialectGap,
  readEndpoint,
} from '../support/webhook-endpoints.js';

/**
 * Fills the key's mode up to five endpoints, each expected to be accepted;
 * answers the ids made. In a partner sandbox that already has endpoints only
 * the missing ones are made (and deleted as the check ends).
 */
async function fillToFive(ctx: CheckContext, key: Key, what: string): Promise<string[]> {
  const existing = await countEndpoints(ctx, key);
  if (typeof existing !== 'number')
    return ctx.notVerifiable(
      `the webhook endpoints of the key could not be listed: ${existing.why}`,
    );
  if (existing >= ENDPOINTS_PER_MODE) {
    return ctx.notVerifiable(`the sandbox already has ${existing} webhook endpoints in this mode`);
  }
  if (existing > 0) ctx.note(`${existing} webhook endpoints existed before the check`);
  const label = (n: number) => `${what}: webhook endpoint ${n} of ${ENDPOINTS_PER_MODE}`;
  const made = (res: HttpResponse, n: number): string[] =>
    expectSuccess(ctx, res, label(n))
      ? [idOf(ctx, res.json, 'creating a webhook endpoint', 'webhookEndpoint')]
      : [];
  // The first one tells whether the target takes the profile's method and body at all.
  const first = await createEndpoint(ctx, key);
  const gap = endpointDialectGap(ctx, first, 'webhookEndpointCreate', label(existing + 1));
  if (gap) throw gap;
  // The others within the limit, all at once (a target far away is not asked one after another).
  const others = Array.from(
    { length: ENDPOINTS_PER_MODE - existing - 1 },
    (_, i) => existing + 2 + i,
  );
  const answers = await Promise.all(
    others.map(async (n) => ({ n, res: await createEndpoint(ctx, key) })),
  );
  // Judged in the order they were asked for, whatever order they came back in.
  return [...made(first, existing + 1), ...answers.flatMap(({ n, res }) => made(res, n))];
}

/** Deletes the check's own endpoints at once, so the next check of a partner sandbox finds room. */
async function removeAll(ctx: CheckContext, key: Key, ids: readonly string[]): Promise<void> {
  for (const id of ids) await deleteEndpoint(ctx, key, id);
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
  // The account is the check's own and its live mode has no endpoint yet: whatever the live key's
  // list shows is the test mode's, a leak (section 1: live keys see only live objects), never a
  // sandbox that is "already full".
  const shown = await countEndpoints(ctx, liveKey);
  if (typeof shown !== 'number')
    return ctx.notVerifiable(`the live mode's webhook endpoints could not be listed: ${shown.why}`);
  if (
    !ctx.expectEqual(
      `/body${ctx.dialect.list.items}`,
      0,
      shown,
      "the live key's webhook endpoint list, before any live endpoint was made, shows the test mode's",
    )
  )
    return;
  await fillToFive(ctx, liveKey, 'live mode, with test mode full');
  ctx.expectProblem(await createEndpoint(ctx, liveKey), { status: 422, code: 'limit_exceeded' });
});

check('HOOK-03', async (ctx) => {
  // Section 6, as the contract reads it: deleted webhook endpoints do not count toward the five.
  const { key } = await ordering(ctx);
  const ids = await fillToFive(ctx, key, 'before a delete');
  const victim = ids[0];
  if (victim === undefined) return ctx.notVerifiable("no endpoint of the check's own to delete");
  const deleted = await deleteEndpoint(ctx, key, victim);
  const gap = endpointDialectGap(ctx, deleted, 'webhookEndpointDelete', 'deleting an endpoint');
  if (gap) throw gap;
  requireSuccess(deleted, 'deleting an endpoint');
  const replacement = await createEndpoint(ctx, key);
  expectSuccess(ctx, replacement, 'an endpoint in place of a deleted one');
  const extra = idIn(ctx.dialect, 'webhookEndpoint', replacement.json);
  await removeAll(ctx, key, [...ids.slice(1), ...(extra === undefined ? [] : [extra])]);
});

check('HOOK-04', async (ctx) => {
  // Section 6: "Both need the scope webhooks:manage"; section 5 rule 8: 403 insufficient_scope with required_scope.
  const { account } = await ordering(ctx);
  const key = await ctx.key({
    scopes: ['catalog:read', 'orders:read', 'orders:write'],
    ...(account ? { account } : {}),
  });
  const client = ctx.api(key);
  const { operations } = ctx.dialect;
  const calls = [
    [
      'listing webhook endpoints',
      'webhookEndpointList',
      () =>
        client.send({
          method: operations.webhookEndpointList.method,
          path: ctx.path('webhookEndpoints'),
        }),
    ],
    [
      'creating a webhook endpoint',
      'webhookEndpointCreate',
      () =>
        client.send({
          method: operations.webhookEndpointCreate.method,
          path: ctx.path('webhookEndpoints'),
          json: endpointBody(ctx, 'https://hooks.example.com/orders'),
        }),
    ],
    [
      'listing events',
      'eventList',
      () => client.send({ method: operations.eventList.method, path: ctx.path('events') }),
    ],
  ] as const;
  let gap: NotVerifiable | undefined;
  let failed = false;
  for (const [what, operation, call] of calls) {
    const res = await call();
    // A request the target does not take in this dialect says nothing about scopes.
    const unknown = res.status === 403 ? undefined : endpointDialectGap(ctx, res, operation, what);
    if (unknown) {
      gap ??= unknown;
      continue;
    }
    if (!ctx.expectProblem(res, { status: 403, code: 'insufficient_scope' })) {
      failed = true;
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
  if (gap && !failed) throw gap;
});

check('HOOK-05', async (ctx) => {
  // Section 6: methods not shown; contract section 2: POST 201, GET list and one, DELETE 204
  // (a profile gives its own methods, statuses and answer pointers).
  const { key } = await ordering(ctx);
  const { operations } = ctx.dialect;
  const created = await createEndpoint(ctx, key);
  ctx.expectStatus(created, operations.webhookEndpointCreate.status);
  if (created.status >= 300) return;
  const id = idOf(ctx, created.json, 'creating a webhook endpoint', 'webhookEndpoint');
  const url = valueAt(created.json, ctx.dialect.webhookEndpointBody.url);
  const one = await readEndpoint(ctx, key, id);
  if (ctx.expectStatus(one, operations.webhookEndpointRead.status)) {
    ctx.expectEqual(
      `/body${ctx.dialect.answers.webhookEndpoint.id}`,
      id,
      idIn(ctx.dialect, 'webhookEndpoint', one.json),
      'the read answers the endpoint created',
    );
    // Where the creation answer shows the URL sent, the read shows it too.
    if (url !== undefined) {
      ctx.expectEqual(
        `/body${ctx.dialect.webhookEndpointBody.url}`,
        url,
        valueAt(one.json, ctx.dialect.webhookEndpointBody.url),
        'the read shows the URL of the endpoint created',
      );
    }
  }
  const listed: string[] = [];
  const list = {
    operation: 'webhookEndpointList',
    path: ctx.path('webhookEndpoints'),
    kind: 'webhookEndpoint',
  } as const;
  const walk = await walkList(ctx.api(key), ctx.dialect, list, (items) => {
    for (const item of items) {
      const shown = idIn(ctx.dialect, 'webhookEndpoint', item);
      if (shown !== undefined) listed.push(shown);
    }
    return listed.includes(id);
  });
  if (walk.end === 'refused') ctx.expectStatus(walk.res, operations.webhookEndpointList.status);
  else {
    ctx.expectTrue(listed.includes(id), {
      code: 'STATE',
      pointer: `/body${ctx.dialect.list.items}`,
      expected: id,
      received: listed,
      message: 'the endpoint created is not in the list',
    });
  }
  ctx.expectStatus(await deleteEndpoint(ctx, key, id), operations.webhookEndpointDelete.status);
  ctx.expectProblem(await readEndpoint(ctx, key, id), { status: 404, code: 'not_found' });
});
