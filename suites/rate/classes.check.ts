import type {
  CheckContext,
  HttpResponse,
  OperationName,
  PathName,
  RequestSpec,
} from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  DOCUMENTED_LIMITS,
  idIn,
  itemIdOf,
  listPage,
  orderBody,
  pathTemplate,
  quoteBody,
  requestClass,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { problemCode } from '../support/problem-text.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import {
  createEndpoint,
  deleteEndpoint,
  endpointBody,
  endpointDialectGap,
} from '../support/webhook-endpoints.js';
import { burst } from './burst.js';
import { RATE_LIMITED } from './limit-classes.js';
import { pastTheMinuteOf, startOfAMinute } from './window.js';

// Each check on an account of its own, its clock its own: they may run side by side.
checksUseOwnAccounts();

/** One endpoint of a class: its operation, and how to make one request of it that is accepted. */
interface Endpoint {
  operation: OperationName;
  request(): RequestSpec;
}

/** Section 8: writes are POST, PATCH and DELETE (a PUT of a dialect is none of the three). */
const WRITE_METHODS = ['POST', 'PATCH', 'DELETE'];

/** The class an operation of the dialect counts in: its method and path, as the suite counts them. */
function classOf(ctx: CheckContext, operation: OperationName, path: PathName) {
  const { method } = ctx.dialect.operations[operation];
  if (method !== 'GET' && !WRITE_METHODS.includes(method)) return undefined;
  return requestClass(method, pathTemplate(ctx.dialect, path), pathTemplate(ctx.dialect, 'token'));
}

function describe(res: HttpResponse): string {
  const code = problemCode(res);
  return `HTTP ${res.status}${code ? ` ${code}` : ''}`;
}

function accepted(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/**
 * Uses up the class's budget of one minute with `limit` requests spread over
 * `endpoints` in turn (every one of them must be accepted: the budget is the
 * minute's), then sends one more to each endpoint, all at once: each must be
 * refused with 429 rate_limited, since every endpoint of the class counts
 * against the one budget (section 8). `spread` makes the requests in the
 * order given; a later group waits for the ones before (a delete before the
 * creation that needs its room).
 */
async function spendAndProbe(
  ctx: CheckContext,
  className: string,
  limit: number,
  spread: readonly (readonly Endpoint[])[],
  probes: readonly Endpoint[],
): Promise<void> {
  let spent = 0;
  for (const group of spread) {
    const answers = await burst(ctx, group.length, (i) =>
      ctx.send((group[i] as Endpoint).request()),
    );
    const refused = answers.flatMap((res, i) => (accepted(res) ? [] : [{ res, i }]));
    const firstRefused = refused[0];
    ctx.expectTrue(firstRefused === undefined, {
      code: 'STATUS',
      pointer: '/status',
      expected: `${limit} ${className} of one key in a minute accepted`,
      received: firstRefused
        ? `${refused.length} refused after ${spent} others, the first: ${(group[firstRefused.i] as Endpoint).operation} ${describe(firstRefused.res)}`
        : null,
      message: `a key's ${className} spread over every endpoint of the class were refused before ${limit}`,
      ...(firstRefused ? { exchange: firstRefused.res.exchange } : {}),
    });
    if (firstRefused) return;
    spent += group.length;
  }
  const answers = await allAtOnce(probes, (endpoint) => ctx.send(endpoint.request()));
  probes.forEach((endpoint, i) => {
    const res = answers[i] as HttpResponse;
    ctx.expectTrue(res.status === 429 && problemCode(res) === 'rate_limited', {
      code: 'STATUS',
      pointer: '/status',
      expected: '429 rate_limited',
      must: RATE_LIMITED,
      received: describe(res),
      message: `${endpoint.operation} (${res.requestPath}) was served after the key's ${limit} ${className} of the minute: it does not count in the one budget of its class`,
      exchange: res.exchange,
    });
  });
}

// Section 8: "Reads (GET) | 300 requests per minute per key": every GET endpoint of the dialect
// counts against the one read budget of the key. 300 reads spread over all of them, then each once
// more: every one refused.
check('RATE-13', async (ctx) => {
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const setUp = performance.now();
  // What the reads read: a shipped order (its shipments and invoice), a quote, an endpoint, an event.
  const body = orderBody(ctx, catalog);
  const order = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body), 'placing an order'),
    'an order',
  );
  await ctx.control.ship(account.id, order);
  const api = ctx.api(key);
  const quoted = await api.post(ctx.path('quotes'), quoteBody(ctx, catalog));
  requireQuoteBodyTaken(ctx, quoted, 'a quote to read');
  const quote = idOf(ctx, requireSuccess(quoted, 'creating a quote'), 'a quote', 'quote');
  const made = await createEndpoint(ctx, key);
  const gap = endpointDialectGap(ctx, made, 'webhookEndpointCreate', 'a webhook endpoint to read');
  if (gap) throw gap;
  const endpoint = idOf(
    ctx,
    requireSuccess(made, 'creating a webhook endpoint'),
    'a webhook endpoint',
    'webhookEndpoint',
  );
  const events = await api.send({
    method: ctx.dialect.operations.eventList.method,
    path: ctx.path('events'),
  });
  const page = accepted(events)
    ? listPage(ctx.dialect, events.json, itemIdOf(ctx.dialect, 'event'), events.exchange)
    : undefined;
  const event = idIn(ctx.dialect, 'event', page?.items[0]);
  const auth = { kind: 'key', key } as const;
  const reads: [OperationName, PathName, Record<string, string | undefined>?][] = [
    ['account', 'account'],
    ['catalogProducts', 'catalogProducts'],
    ['catalogProduct', 'catalogProduct', { sku: catalog.products[0]?.sku }],
    ['quoteRead', 'quote', { id: quote }],
    ['orderList', 'orders'],
    ['orderRead', 'order', { id: order }],
    ['orderByExternalId', 'orderByExternalId', { external_id: body.external_id }],
    ['shipments', 'shipments', { id: order }],
    ['invoice', 'invoice', { id: order }],
    ['webhookEndpointList', 'webhookEndpoints'],
    ['webhookEndpointRead', 'webhookEndpoint', { id: endpoint }],
    ['eventList', 'events'],
    ['eventRead', 'event', { id: event }],
  ];
  const endpoints: Endpoint[] = reads.flatMap(([operation, path, params]) => {
    if (classOf(ctx, operation, path) !== 'read') return [];
    const values = Object.entries(params ?? {});
    if (values.some(([, value]) => value === undefined)) {
      ctx.note(`${operation}: nothing to read it with (no ${values.map(([n]) => n).join(', ')})`);
      return [];
    }
    const filled = ctx.path(path, Object.fromEntries(values) as Record<string, string>);
    const method = ctx.dialect.operations[operation].method;
    return [{ operation, request: () => ({ method, path: filled, auth }) }];
  });
  // Only requests the target accepts can be counted (whether refused ones count is DIALECT): one
  // of each, in the setting-up minute, tells which.
  const tried = await allAtOnce(endpoints, (e) => ctx.send(e.request()));
  const counted = endpoints.filter((e, i) => {
    const res = tried[i] as HttpResponse;
    if (!accepted(res)) ctx.note(`${e.operation} answered ${describe(res)}: left out of the count`);
    return accepted(res);
  });
  if (counted.length < 2) {
    return ctx.notVerifiable(
      'fewer than two GET endpoints answered a read: nothing to spread over',
    );
  }
  await pastTheMinuteOf(ctx, account, setUp);
  await startOfAMinute(ctx, account);
  const limit = DOCUMENTED_LIMITS.read;
  const spread = Array.from({ length: limit }, (_, i) => counted[i % counted.length] as Endpoint);
  await spendAndProbe(ctx, 'reads', limit, [spread], counted);
});

// Section 8: "Writes (POST, PATCH, DELETE) | 60 requests per minute per key": every write endpoint
// of the dialect (quotes, orders, cancels, webhook endpoints made and deleted) counts against the one
// write budget of the key. 60 writes spread over all of them, then each once more: every one refused.
check('RATE-14', async (ctx) => {
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const setUp = performance.now();
  const auth = { kind: 'key', key } as const;
  const api = ctx.api(key);
  const writes = (operation: OperationName, path: PathName) =>
    classOf(ctx, operation, path) === 'write';
  const limit = DOCUMENTED_LIMITS.write;
  // Orders to cancel, and webhook endpoints to delete and room for new ones (five per mode): made in
  // the setting-up minute, with the first write of each kind, which tells that the target takes it.
  const CANCELS = writes('orderCancel', 'orderCancel') ? 10 : 0;
  const hooks =
    writes('webhookEndpointCreate', 'webhookEndpoints') &&
    writes('webhookEndpointDelete', 'webhookEndpoint');
  const quoteJson = quoteBody(ctx, catalog);
  const quoted = await api.post(ctx.path('quotes'), quoteJson);
  requireQuoteBodyTaken(ctx, quoted, 'a quote');
  requireSuccess(quoted, 'creating a quote');
  const placed = await allAtOnce(Array.from({ length: CANCELS + 1 }), () =>
    ctx.postOrder(key, orderBody(ctx, catalog)),
  );
  const orders = placed.map((res, n) =>
    idOf(ctx, requireSuccess(res, `placing order ${n + 1}`), 'an order'),
  );
  const endpointIds: string[] = [];
  if (hooks) {
    const made = await allAtOnce(Array.from({ length: 5 }), () => createEndpoint(ctx, key));
    for (const res of made) {
      const gap = endpointDialectGap(
        ctx,
        res,
        'webhookEndpointCreate',
        'creating a webhook endpoint',
      );
      if (gap) throw gap;
      endpointIds.push(
        idOf(
          ctx,
          requireSuccess(res, 'creating a webhook endpoint'),
          'an endpoint',
          'webhookEndpoint',
        ),
      );
    }
    const deleted = await deleteEndpoint(ctx, key, endpointIds.shift() as string);
    const gap = endpointDialectGap(
      ctx,
      deleted,
      'webhookEndpointDelete',
      'deleting a webhook endpoint',
    );
    if (gap) throw gap;
    requireSuccess(deleted, 'deleting a webhook endpoint');
  }
  // Four endpoints now: three deleted and three made in the minute (deletions first), leaving one
  // to delete and room for one more when the probes come.
  const method = (operation: OperationName) => ctx.dialect.operations[operation].method;
  const quote: Endpoint = {
    operation: 'quoteCreate',
    request: () => ({ method: 'POST', path: ctx.path('quotes'), json: quoteJson, auth }),
  };
  const order: Endpoint = {
    operation: 'orderCreate',
    request: () => ctx.orderRequest(key, orderBody(ctx, catalog)),
  };
  const toCancel = [...orders];
  const cancel: Endpoint = {
    operation: 'orderCancel',
    request: () => ({
      method: 'POST',
      path: ctx.path('orderCancel', { id: toCancel.shift() as string }),
      auth,
    }),
  };
  const toDelete = [...endpointIds];
  const remove: Endpoint = {
    operation: 'webhookEndpointDelete',
    request: () => ({
      method: method('webhookEndpointDelete'),
      path: ctx.path('webhookEndpoint', { id: toDelete.shift() as string }),
      auth,
    }),
  };
  const create: Endpoint = {
    operation: 'webhookEndpointCreate',
    request: () => ({
      method: method('webhookEndpointCreate'),
      path: ctx.path('webhookEndpoints'),
      json: endpointBodyFor(ctx),
      auth,
    }),
  };
  const HOOK_WRITES = hooks ? 3 : 0;
  const ORDERS = 10;
  const first: Endpoint[] = [
    ...Array.from({ length: ORDERS }, () => order),
    ...Array.from({ length: CANCELS }, () => cancel),
    ...Array.from({ length: HOOK_WRITES }, () => remove),
  ];
  const quotes = limit - first.length - HOOK_WRITES;
  first.push(...Array.from({ length: quotes }, () => quote));
  const then = Array.from({ length: HOOK_WRITES }, () => create);
  await pastTheMinuteOf(ctx, account, setUp);
  await startOfAMinute(ctx, account);
  const probes = [
    quote,
    order,
    ...(CANCELS > 0 ? [cancel] : []),
    ...(hooks ? [remove, create] : []),
  ];
  await spendAndProbe(ctx, 'writes', limit, [first, then], probes);
});

/** A webhook endpoint body to a new realistic https URL (support/webhook-endpoints.ts `endpointBody`). */
function endpointBodyFor(ctx: CheckContext): Record<string, unknown> {
  const url = `https://${ctx.faker.internet.domainName()}/webhooks/${ctx.faker.string.alphanumeric(10)}`;
  return endpointBody(ctx, url);
}
