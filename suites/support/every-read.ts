import type {
  Auth,
  CheckContext,
  HttpResponse,
  Key,
  OperationName,
  TestAccount,
} from '../../lib/check/index.js';
import { idIn, linesOf, quoteBodyOf, valueAt } from '../../lib/check/index.js';
import { allAtOnce, together } from './all-at-once.js';
import { createEndpoint } from './webhook-endpoints.js';

/** One read of the endpoint table (section 4), by its operation. */
export interface Read {
  what: string;
  operation: OperationName;
  path: string;
}

/** An order the account placed: what the reads of one order name. */
export interface PlacedForReads {
  id: string;
  body: Record<string, unknown>;
}

/**
 * Every read (GET, section 8) of the endpoint table, naming objects of the
 * account: the order placed, a quote made from it, a webhook endpoint, the
 * newest event, and the shipments and invoice of `shipped` (shipped here with
 * the control feature `shipping`; until then it has no invoice to read). The objects are made
 * at once, with `key`, while the account is as usual. Operations whose method
 * the profile makes something other than GET (webhook endpoints and events:
 * section 6 shows none) are writes, not reads, and left out.
 */
export async function everyRead(
  ctx: CheckContext,
  key: Key,
  placed: PlacedForReads,
  account: TestAccount | undefined,
  /** The order whose shipments and invoice are read, shipped here; default `placed`. */
  shipped: PlacedForReads = placed,
): Promise<Read[]> {
  const client = ctx.api(key);
  const [quote, endpoint] = await together(
    client.post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, placed.body)),
    createEndpoint(ctx, key),
    ctx.has('shipping') && account
      ? ctx.control.ship(account.id, shipped.id)
      : Promise.resolve(undefined),
  );
  const { operations } = ctx.dialect;
  const events = await client.send({
    method: operations.eventList.method,
    path: ctx.path('events'),
  });
  const items = events.status < 300 ? valueAt(events.json, ctx.dialect.list.items) : undefined;
  const quoteId = quote.status < 300 ? idIn(ctx.dialect, 'quote', quote.json) : undefined;
  const endpointId =
    endpoint.status < 300 ? idIn(ctx.dialect, 'webhookEndpoint', endpoint.json) : undefined;
  const eventId =
    Array.isArray(items) && items.length > 0 ? idIn(ctx.dialect, 'event', items[0]) : undefined;
  const sku = linesOf(ctx.dialect.orderBody, placed.body)[0]?.sku;
  const { id } = placed;
  const sent = shipped.id;
  const reads: (Read | undefined)[] = [
    { what: 'GET /account', operation: 'account', path: ctx.path('account') },
    { what: 'the catalog', operation: 'catalogProducts', path: ctx.path('catalogProducts') },
    sku === undefined
      ? undefined
      : {
          what: 'a product',
          operation: 'catalogProduct',
          path: ctx.path('catalogProduct', { sku }),
        },
    quoteId === undefined
      ? undefined
      : { what: 'a quote', operation: 'quoteRead', path: ctx.path('quote', { id: quoteId }) },
    { what: 'GET /orders', operation: 'orderList', path: ctx.path('orders') },
    { what: 'an order', operation: 'orderRead', path: ctx.path('order', { id }) },
    {
      what: 'an order by external id',
      operation: 'orderByExternalId',
      path: ctx.path('orderByExternalId', { external_id: String(placed.body.external_id) }),
    },
    {
      what: 'the shipments of an order',
      operation: 'shipments',
      path: ctx.path('shipments', { id: sent }),
    },
    ctx.has('shipping') && account
      ? {
          what: 'the invoice of an order',
          operation: 'invoice',
          path: ctx.path('invoice', { id: sent }),
        }
      : undefined,
    {
      what: 'the webhook endpoints',
      operation: 'webhookEndpointList',
      path: ctx.path('webhookEndpoints'),
    },
    endpointId === undefined
      ? undefined
      : {
          what: 'a webhook endpoint',
          operation: 'webhookEndpointRead',
          path: ctx.path('webhookEndpoint', { id: endpointId }),
        },
    { what: 'the events', operation: 'eventList', path: ctx.path('events') },
    eventId === undefined
      ? undefined
      : { what: 'an event', operation: 'eventRead', path: ctx.path('event', { id: eventId }) },
  ];
  return reads.filter(
    (read): read is Read => read !== undefined && operations[read.operation].method === 'GET',
  );
}

/** Sends each read at once with `auth`; answers the responses in the reads' order. */
export function sendReads(
  ctx: CheckContext,
  reads: readonly Read[],
  auth: Auth,
): Promise<HttpResponse[]> {
  return allAtOnce(reads, ({ path }) => ctx.send({ method: 'GET', path, auth }));
}

/**
 * The reads the target serves now (a 2xx), sent at once: those a check may
 * hold to later. A read refused now says something about the profile or
 * the objects, not about what the check then changes: it is noted and left out.
 */
export async function servedReads(
  ctx: CheckContext,
  reads: readonly Read[],
  auth: Auth,
): Promise<Read[]> {
  const answers = await sendReads(ctx, reads, auth);
  return reads.filter((read, i) => {
    const res = answers[i] as HttpResponse;
    if (res.status >= 200 && res.status < 300) return true;
    ctx.note(`${read.what} answered ${res.status} before the change: not held to afterwards`);
    return false;
  });
}
