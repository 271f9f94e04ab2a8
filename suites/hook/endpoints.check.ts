import type {
  CheckContext,
  HttpResponse,
  Key,
  NotVerifiable,
  OperationName,
} from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  idIn,
  orderBody,
  valueAt,
  walkList,
} from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import type { OrderCatalog } from '../support/catalog.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { problemCode } from '../support/problem-text.js';
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
  const pages: HttpResponse[] = [];
  const shown = await countEndpoints(ctx, liveKey, pages);
  if (typeof shown !== 'number')
    return ctx.notVerifiable(`the live mode's webhook endpoints could not be listed: ${shown.why}`);
  const items = `/body${ctx.dialect.list.items}`;
  if (
    !ctx.expectTrue(shown === 0, {
      code: 'VALUE',
      pointer: items,
      expected: 0,
      received: shown,
      message:
        "the live key's webhook endpoint list, before any live endpoint was made, shows the test mode's",
      // As data over the pages read: every one empty.
      exchanges: pages.map((page) => page.exchange),
      must: { each: { at: items, is: { equals: [] } } },
    })
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

/** A webhook endpoint and an event of the key's mode to name, each with the read that showed it. */
interface Named {
  endpoint?: string;
  event?: string;
}

/**
 * One webhook endpoint made with `key` and one event of its mode (an order is
 * placed first in an account the run made, where none is yet; which
 * operation emits which event is not shown, section 6: any event listed
 * will do), each read back with `key`: a read served shows the profile's
 * method and path there, so a refusal of it with another key is about
 * scopes, never about the dialect.
 */
async function namedObjects(
  ctx: CheckContext,
  key: Key,
  fresh: OrderCatalog | undefined,
): Promise<Named> {
  const [created] = await together(
    createEndpoint(ctx, key),
    fresh ? ctx.postOrder(key, orderBody(ctx, fresh)) : Promise.resolve(undefined),
  );
  const endpoint =
    created.status < 300 ? idIn(ctx.dialect, 'webhookEndpoint', created.json) : undefined;
  const { operations } = ctx.dialect;
  const list = await ctx
    .api(key)
    .send({ method: operations.eventList.method, path: ctx.path('events') });
  const items = list.status < 300 ? valueAt(list.json, ctx.dialect.list.items) : undefined;
  const first = Array.isArray(items) ? items[0] : undefined;
  const event = first === undefined ? undefined : idIn(ctx.dialect, 'event', first);
  const [endpointRead, eventRead] = await together(
    endpoint === undefined ? Promise.resolve(undefined) : readEndpoint(ctx, key, endpoint),
    event === undefined
      ? Promise.resolve(undefined)
      : ctx
          .api(key)
          .send({ method: operations.eventRead.method, path: ctx.path('event', { id: event }) }),
  );
  const shown = (res: HttpResponse | undefined) => res !== undefined && res.status < 300;
  if (!shown(endpointRead))
    ctx.note('no webhook endpoint of the key could be made and read: one endpoint is not tried');
  if (!shown(eventRead))
    ctx.note('no event of the key could be listed and read: one event is not tried');
  return {
    ...(shown(endpointRead) && endpoint !== undefined ? { endpoint } : {}),
    ...(shown(eventRead) && event !== undefined ? { event } : {}),
  };
}

check('HOOK-04', async (ctx) => {
  // Section 6: "Both need the scope webhooks:manage"; section 5 rule 8: 403 insufficient_scope with
  // required_scope; the scope table: webhooks:manage for /webhook-endpoints and /events, one of each
  // as much as their lists.
  const { key: manager, account, catalog } = await ordering(ctx);
  const key = await ctx.key({
    scopes: ['catalog:read', 'orders:read', 'orders:write'],
    ...(account ? { account } : {}),
  });
  const named = await namedObjects(ctx, manager, account ? catalog : undefined);
  const client = ctx.api(key);
  const { operations } = ctx.dialect;
  const send = (operation: OperationName, path: string, json?: unknown) =>
    client.send({
      method: operations[operation].method,
      path,
      ...(json === undefined ? {} : { json }),
    });
  const calls: {
    what: string;
    operation: OperationName;
    shown: boolean;
    call: () => Promise<HttpResponse>;
  }[] = [
    {
      what: 'listing webhook endpoints',
      operation: 'webhookEndpointList',
      shown: false,
      call: () => send('webhookEndpointList', ctx.path('webhookEndpoints')),
    },
    {
      what: 'creating a webhook endpoint',
      operation: 'webhookEndpointCreate',
      shown: false,
      call: () =>
        send(
          'webhookEndpointCreate',
          ctx.path('webhookEndpoints'),
          endpointBody(ctx, 'https://hooks.example.com/orders'),
        ),
    },
    {
      what: 'listing events',
      operation: 'eventList',
      shown: false,
      call: () => send('eventList', ctx.path('events')),
    },
  ];
  if (named.endpoint !== undefined) {
    const path = ctx.path('webhookEndpoint', { id: named.endpoint });
    calls.push(
      {
        what: 'reading one webhook endpoint',
        operation: 'webhookEndpointRead',
        shown: true,
        call: () => send('webhookEndpointRead', path),
      },
      {
        what: 'deleting one webhook endpoint',
        operation: 'webhookEndpointDelete',
        shown: false,
        call: () => send('webhookEndpointDelete', path),
      },
    );
  }
  if (named.event !== undefined) {
    calls.push({
      what: 'reading one event',
      operation: 'eventRead',
      shown: true,
      call: () => send('eventRead', ctx.path('event', { id: named.event as string })),
    });
  }
  // All at once, judged in order.
  const answers = await allAtOnce(calls, ({ call }) => call());
  let gap: NotVerifiable | undefined;
  let failed = false;
  for (const [i, { what, operation, shown }] of calls.entries()) {
    const res = answers[i] as HttpResponse;
    if (operation === 'webhookEndpointCreate' && res.status < 300) {
      const made = idIn(ctx.dialect, 'webhookEndpoint', res.json);
      if (made !== undefined)
        ctx.onCleanup(async () => void (await deleteEndpoint(ctx, manager, made)));
    }
    // A request the target does not take in this dialect says nothing about scopes; a read the
    // manager's key was served is known to be taken.
    const unknown =
      res.status === 403 || shown ? undefined : endpointDialectGap(ctx, res, operation, what);
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

check('HOOK-06', async (ctx) => {
  // Section 7: "404 not_found: No such object in the account". Ids that name no webhook endpoint (its
  // read and its delete) and no event (its read). The account's own endpoint and event, read first,
  // show that the profile's methods and paths are the target's there.
  const { key, account, catalog } = await ordering(ctx);
  const named = await namedObjects(ctx, key, account ? catalog : undefined);
  const unknown = (stem: string) => `${stem}_${ctx.faker.string.alphanumeric(24)}`;
  const { operations } = ctx.dialect;
  const endpointPath = ctx.path('webhookEndpoint', { id: unknown('we') });
  const calls: { what: string; operation: OperationName; path: string; shown: boolean }[] = [
    {
      what: 'reading an unknown webhook endpoint',
      operation: 'webhookEndpointRead',
      path: endpointPath,
      shown: named.endpoint !== undefined,
    },
    {
      what: 'deleting an unknown webhook endpoint',
      operation: 'webhookEndpointDelete',
      path: endpointPath,
      shown: false,
    },
    {
      what: 'reading an unknown event',
      operation: 'eventRead',
      path: ctx.path('event', { id: unknown('evt') }),
      shown: named.event !== undefined,
    },
  ];
  const answers = await allAtOnce(calls, ({ operation, path }) =>
    ctx.api(key).send({ method: operations[operation].method, path }),
  );
  for (const [i, { what, operation, shown }] of calls.entries()) {
    const res = answers[i] as HttpResponse;
    const answeredNotFound = res.status === 404 && problemCode(res) === 'not_found';
    // Where nothing showed the profile's method there, a 405 (or a 404 of another kind) says only
    // that the target takes another.
    const gap =
      answeredNotFound || shown ? undefined : endpointDialectGap(ctx, res, operation, what);
    if (gap) {
      ctx.note(`${what}: ${gap.message}`);
      continue;
    }
    if (!ctx.expectProblem(res, { status: 404, code: 'not_found' }))
      ctx.note(`${what} answered ${res.status}`);
  }
});
