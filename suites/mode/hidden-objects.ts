import type { AnswerKind, CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { idIn, orderBody, quoteBody, succeeded, valueAt, walkList } from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import type { Ordering } from '../support/ordering.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import {
  createEndpoint,
  deleteEndpoint,
  endpointDialectGap,
  readEndpoint,
} from '../support/webhook-endpoints.js';

/**
 * How a key that does not own an object must be answered for it: 404
 * `not_found`. Section 7 gives that code for "No such object in the account,
 * or it belongs to the other mode", so another mode's objects and another
 * account's alike get exactly that; a 403 would confirm the object exists
 * elsewhere. The object itself never appears.
 */
export function expectHiddenAnswer(
  ctx: CheckContext,
  res: HttpResponse,
  what: string,
  id: string,
  kind: AnswerKind,
): void {
  ctx.expectProblem(res, { status: 404, code: 'not_found' });
  const shown = idIn(ctx.dialect, kind, res.json);
  ctx.expectTrue(shown !== id, {
    code: 'LEAK',
    pointer: `/body${ctx.dialect.answers[kind].id}`,
    expected: 'nothing of the object',
    received: shown,
    message: `${what} showed the object to a key that does not own it`,
    exchange: res.exchange,
    must: { not: { at: `/body${ctx.dialect.answers[kind].id}`, is: { equals: id } } },
  });
}

/**
 * Objects an owner made, besides orders and quotes (which visibility.check.ts
 * tries): an order's shipments and invoice (shipped first when the run can
 * ship, so that there is something to leak), the event its placing recorded,
 * a webhook endpoint, and, where asked, a quote.
 */
export interface OwnedObjects {
  owner: Key;
  orderId?: string;
  shipped: boolean;
  eventId?: string;
  endpointId?: string;
  quoteId?: string;
}

/**
 * The event that mentions an order (event payloads are not shown, section 6:
 * an event is about the order when it holds its id anywhere), in the newest
 * few pages of the owner's events; undefined when there is none or the list
 * is not taken in the profile's dialect (READ-20 and READ-21 judge those).
 */
async function eventAbout(
  ctx: CheckContext,
  key: Key,
  orderId: string,
): Promise<string | undefined> {
  let found: string | undefined;
  const list = { operation: 'eventList', path: ctx.path('events'), kind: 'event' } as const;
  const walk = await walkList(
    ctx.api(key),
    ctx.dialect,
    list,
    (items) => {
      const event = items.find((e) => JSON.stringify(e).includes(JSON.stringify(orderId)));
      found = event === undefined ? undefined : idIn(ctx.dialect, 'event', event);
      return found !== undefined;
    },
    { maxPages: 3 },
  );
  if (walk.end === 'refused') ctx.note(`the owner's event list answered HTTP ${walk.res.status}`);
  return found;
}

/**
 * Makes the owner's objects: with `order`, an order (shipped with the control
 * feature `shipping`) and its event; a webhook endpoint; with `quote`, a
 * quote; all that stand alone at once. What the target does not take in the
 * profile's dialect (a webhook endpoint body, an event list) is left out with
 * a note: the rest is still tried.
 */
export async function makeOwned(
  ctx: CheckContext,
  owner: Ordering,
  options: { order: boolean; quote: boolean },
): Promise<OwnedObjects> {
  const body = options.order ? orderBody(ctx, owner.catalog) : undefined;
  const quoteSent = options.quote ? quoteBody(ctx, owner.catalog) : undefined;
  const [placed, endpoint, quote] = await together(
    body ? ctx.postOrder(owner.key, body) : Promise.resolve(undefined),
    createEndpoint(ctx, owner.key),
    quoteSent ? ctx.api(owner.key).post(ctx.path('quotes'), quoteSent) : Promise.resolve(undefined),
  );
  const owned: OwnedObjects = { owner: owner.key, shipped: false };
  const gap = endpointDialectGap(ctx, endpoint, 'webhookEndpointCreate', 'creating an endpoint');
  if (gap) ctx.note(`webhook endpoints not tried: ${gap.message}`);
  else
    owned.endpointId = idOf(
      ctx,
      requireSuccess(endpoint, "creating the owner's webhook endpoint"),
      'creating a webhook endpoint',
      'webhookEndpoint',
    );
  if (quote) {
    requireQuoteBodyTaken(ctx, quote, "creating the owner's quote");
    owned.quoteId = idOf(
      ctx,
      requireSuccess(quote, "creating the owner's quote"),
      'quote',
      'quote',
    );
  }
  if (!placed) return owned;
  const orderId = idOf(ctx, requireSuccess(placed, "placing the owner's order"), 'placing');
  owned.orderId = orderId;
  if (owner.account && ctx.has('shipping')) {
    await ctx.control.ship(owner.account.id, orderId);
    owned.shipped = true;
  } else {
    ctx.note('the order is not shipped (control feature "shipping"): its invoice is not tried');
  }
  const eventId = await eventAbout(ctx, owner.key, orderId);
  if (eventId === undefined) ctx.note('no event mentioning the order was found: events not tried');
  else owned.eventId = eventId;
  return owned;
}

/** Whether a template puts the order's id in a query (`/shipments?order_id={id}`): a filter, not an object. */
function filtered(template: string): boolean {
  return template.includes('?');
}

/**
 * Every way `other` could reach the owner's objects, each expected to show
 * nothing: shipments and invoice of the order, the event by id and in the
 * event list, the webhook endpoint by id, in the list and deleted by id (the
 * owner's endpoint must then still be there), and the quote by id.
 */
export async function expectOwnedHidden(
  ctx: CheckContext,
  other: Key,
  owned: OwnedObjects,
): Promise<void> {
  const client = ctx.api(other);
  const { operations } = ctx.dialect;
  const { orderId, eventId, endpointId, quoteId } = owned;
  const none = Promise.resolve(undefined);
  // Every read at once, judged in order.
  const [shipments, invoice, event, endpoint, quote, events, endpoints] = await together(
    orderId ? client.get(ctx.path('shipments', { id: orderId })) : none,
    orderId && owned.shipped ? client.get(ctx.path('invoice', { id: orderId })) : none,
    eventId
      ? client.send({
          method: operations.eventRead.method,
          path: ctx.path('event', { id: eventId }),
        })
      : none,
    endpointId ? readEndpoint(ctx, other, endpointId) : none,
    quoteId ? client.get(ctx.path('quote', { id: quoteId })) : none,
    eventId ? listedIds(ctx, other, 'eventList', 'events', 'event') : none,
    endpointId
      ? listedIds(ctx, other, 'webhookEndpointList', 'webhookEndpoints', 'webhookEndpoint')
      : none,
  );
  if (shipments && orderId) expectNoShipment(ctx, shipments, orderId);
  if (invoice && orderId) expectNoInvoice(ctx, invoice, orderId);
  if (event && eventId) expectHiddenAnswer(ctx, event, 'GET /events/{id}', eventId, 'event');
  if (endpoint && endpointId)
    expectHiddenAnswer(ctx, endpoint, 'reading a webhook endpoint', endpointId, 'webhookEndpoint');
  if (quote && quoteId) expectHiddenAnswer(ctx, quote, 'GET /quotes/{id}', quoteId, 'quote');
  if (events && eventId) expectNotListed(ctx, events, eventId, 'the event list');
  if (endpoints && endpointId)
    expectNotListed(ctx, endpoints, endpointId, 'the webhook endpoint list');
  if (!endpointId) return;
  // Deleting by id: refused, and the owner's endpoint is still there afterwards.
  const deleted = await deleteEndpoint(ctx, other, endpointId);
  expectHiddenAnswer(ctx, deleted, 'deleting a webhook endpoint', endpointId, 'webhookEndpoint');
  const still = await readEndpoint(ctx, owned.owner, endpointId);
  ctx.expectTrue(succeeded(ctx.dialect, 'webhookEndpointRead', still.status), {
    code: 'STATE',
    pointer: '/status',
    expected: operations.webhookEndpointRead.status,
    received: still.status,
    message:
      "a key that does not own a webhook endpoint deleted it: the owner's read no longer finds it",
    exchange: still.exchange,
  });
}

/** The shipments of an order the key does not own: 404, or (a filtering path) an empty list. */
function expectNoShipment(ctx: CheckContext, res: HttpResponse, orderId: string): void {
  const template = ctx.dialect.paths.shipments;
  if (filtered(template) && succeeded(ctx.dialect, 'shipments', res.status)) {
    const items = valueAt(res.json, ctx.dialect.list.items);
    ctx.expectTrue(Array.isArray(items) && items.length === 0, {
      code: 'LEAK',
      pointer: `/body${ctx.dialect.list.items}`,
      expected: 'no shipment',
      received: items,
      message: `the shipments of order ${orderId} were shown to a key that does not own it`,
      exchange: res.exchange,
    });
    return;
  }
  ctx.expectProblem(res, { status: 404, code: 'not_found' });
}

/** The invoice of an order the key does not own: 404, or (a filtering path) an answer that names no such order. */
function expectNoInvoice(ctx: CheckContext, res: HttpResponse, orderId: string): void {
  if (filtered(ctx.dialect.paths.invoice) && succeeded(ctx.dialect, 'invoice', res.status)) {
    ctx.expectTrue(!res.text.includes(orderId), {
      code: 'LEAK',
      pointer: '/body',
      expected: 'no invoice of the order',
      received: `an answer naming ${orderId}`,
      message: `the invoice of order ${orderId} was shown to a key that does not own it`,
      exchange: res.exchange,
    });
    return;
  }
  ctx.expectProblem(res, { status: 404, code: 'not_found' });
}

/** The ids a key's list shows (a few pages), or undefined when it could not be read to its end. */
async function listedIds(
  ctx: CheckContext,
  key: Key,
  operation: 'eventList' | 'webhookEndpointList',
  path: 'events' | 'webhookEndpoints',
  kind: 'event' | 'webhookEndpoint',
): Promise<{ ids: string[]; complete: boolean; res?: HttpResponse }> {
  const ids: string[] = [];
  const walk = await walkList(
    ctx.api(key),
    ctx.dialect,
    { operation, path: ctx.path(path), kind },
    (items) => {
      for (const item of items) {
        const id = idIn(ctx.dialect, kind, item);
        if (id !== undefined) ids.push(id);
      }
    },
    { maxPages: 5 },
  );
  return {
    ids,
    complete: walk.end === 'complete',
    ...(walk.end === 'refused' ? { res: walk.res } : {}),
  };
}

function expectNotListed(
  ctx: CheckContext,
  listed: { ids: string[]; complete: boolean; res?: HttpResponse },
  id: string,
  what: string,
): void {
  if (listed.res) {
    ctx.note(`${what} of the other key answered HTTP ${listed.res.status}: not judged`);
    return;
  }
  ctx.expectTrue(!listed.ids.includes(id), {
    code: 'LEAK',
    pointer: `/body${ctx.dialect.list.items}`,
    expected: `${id} not listed`,
    received: listed.ids,
    message: `${what} of a key that does not own ${id} shows it`,
  });
  if (!listed.complete) ctx.note(`${what} was read five pages deep, not to its end`);
}
