import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { API_BASE } from '../config/api.js';
import type { AppContext } from '../context.js';
import type { Mode } from '../domain/modes.js';
import type { Order } from '../domain/order.js';
import { FROM_START, page } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { eventView, webhookEndpointView } from '../views/events.js';
import { invoiceView, shipmentView } from '../views/fulfilment.js';
import { defectsOf } from './defect.js';
import type { Wide } from './store/wide.js';

const otherMode = (mode: Mode): Mode => (mode === 'test' ? 'live' : 'test');

/**
 * A route that answers, before its handler, with an object the caller may not
 * see, as a route that looks the object up in the wrong place would: `find`
 * answers the reply's body (or, for a delete, `null` for 204), undefined to
 * leave the request to the correct handler.
 */
function answeredBefore(
  method: string,
  route: string,
  find: (principal: Principal, id: string) => Promise<unknown>,
) {
  return (app: FastifyInstance): void => {
    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const { principal } = request;
      if (request.method !== method || request.routeOptions.url !== `${API_BASE}${route}`) return;
      if (principal === null) return;
      const found = await find(principal, (request.params as { id: string }).id);
      if (found === undefined) return;
      if (found === null) return reply.code(204).send();
      return reply.send(found);
    });
  };
}

/** The caller's own order of its mode, else the one `elsewhere` finds. */
async function orderElsewhere(
  ctx: AppContext,
  principal: Principal,
  id: string,
  elsewhere: () => Promise<Order | undefined>,
): Promise<Order | undefined> {
  const own = await ctx.store.orders.get(principal.account.id, principal.mode, id);
  return own ? undefined : elsewhere();
}

/** The order of this mode by id, in whatever account holds it. */
async function anyAccountsOrder(
  ctx: AppContext,
  wide: Wide,
  mode: Mode,
  id: string,
): Promise<Order | undefined> {
  const accountId = await wide.orderAccount(id, mode);
  return accountId === undefined ? undefined : ctx.store.orders.get(accountId, mode, id);
}

/** The shipments page and the invoice of an order, as their routes answer them. */
async function shipmentsOf(ctx: AppContext, order: Order) {
  return page(await ctx.store.fulfilment.shipments(order.id, FROM_START, 21), 20, shipmentView);
}
async function invoiceOf(ctx: AppContext, order: Order) {
  const invoice = await ctx.store.fulfilment.invoice(order.id);
  return invoice ? invoiceView(invoice) : undefined;
}

/** §1, §7 not_found: modes and ownership. */
export const MODE_DEFECTS = defectsOf('MODE', [
  {
    name: 'test-key-sees-live-orders',
    breaks: 'a test key reads, finds and cancels live orders',
    replaces: () => ({
      orderReads: {
        lookupOrder: (lookup) => async (principal, id) =>
          (await lookup(principal, id)) ??
          (principal.mode === 'test'
            ? await lookup({ ...principal, mode: 'live' }, id)
            : undefined),
        lookupByExternalId: (lookup) => async (principal, externalId) =>
          (await lookup(principal, externalId)) ??
          (principal.mode === 'test'
            ? await lookup({ ...principal, mode: 'live' }, externalId)
            : undefined),
      },
    }),
  },
  {
    name: 'live-key-sees-test-quotes',
    breaks: 'a live key reads test quotes',
    replaces: () => ({
      quotes: {
        lookupQuote: (lookup) => async (principal, id) =>
          (await lookup(principal, id)) ??
          (principal.mode === 'live'
            ? await lookup({ ...principal, mode: 'test' }, id)
            : undefined),
      },
    }),
  },
  {
    name: 'other-account-orders-visible',
    breaks: "GET /orders/{id} reads another account's order",
    replaces: ({ ctx, wide }) => ({
      orderReads: {
        // The order of this mode by id, in whatever account holds it.
        lookupOrder: (lookup) => async (principal, id) => {
          const accountId = await wide.orderAccount(id, principal.mode);
          return (
            (accountId === undefined
              ? undefined
              : await ctx.store.orders.get(accountId, principal.mode, id)) ??
            (await lookup(principal, id))
          );
        },
      },
    }),
  },
  {
    // One defect per path that hands an object out, each leaking across accounts on its own, so
    // that MODE-03 is shown to catch a leak on every path.
    name: 'other-account-found-by-external-id',
    breaks: "GET /orders/by-external-id finds another account's order of the mode",
    replaces: ({ ctx, wide }) => ({
      orderReads: {
        lookupByExternalId: (lookup) => async (principal, externalId) => {
          const own = await lookup(principal, externalId);
          if (own) return own;
          const accountId = await wide.externalIdAccount(externalId, principal.mode);
          return accountId === undefined
            ? undefined
            : ctx.store.orders.getByExternalId(accountId, principal.mode, externalId);
        },
      },
    }),
  },
  {
    name: 'other-account-orders-listed',
    breaks: "GET /orders lists other accounts' orders of the mode",
    replaces: ({ ctx }) => {
      // The accounts seen placing orders in this app: whose orders the list shows the others.
      const placing = new Set<string>();
      return {
        orders: {
          checkCanPlaceOrders: (check) => (account) => {
            check(account);
            placing.add(account.id);
          },
        },
        orderReads: {
          listOrders: (list) => async (principal, before, limit) => {
            const others = [];
            for (const id of placing) {
              const account =
                id === principal.account.id ? undefined : await ctx.store.accounts.get(id);
              if (account) others.push(...(await list({ ...principal, account }, before, limit)));
            }
            return [...others, ...(await list(principal, before, limit))];
          },
        },
      };
    },
  },
  {
    name: 'other-account-quotes-visible',
    breaks: "GET /quotes/{id} reads another account's quote",
    replaces: ({ ctx }) => {
      // The accounts seen making quotes in this app: where the lookup looks after the caller's.
      const quoting = new Set<string>();
      return {
        quotes: {
          checkWritable: (check) => (account) => {
            check(account);
            quoting.add(account.id);
          },
          lookupQuote: (lookup) => async (principal, id) => {
            const own = await lookup(principal, id);
            if (own) return own;
            for (const accountId of quoting) {
              const account = await ctx.store.accounts.get(accountId);
              const quote = account && (await lookup({ ...principal, account }, id));
              if (quote) return quote;
            }
            return undefined;
          },
        },
      };
    },
  },
  {
    name: 'test-key-lists-live-orders',
    breaks: "a test key's GET /orders lists the account's live orders",
    replaces: () => ({
      orderReads: {
        listOrders: (list) => async (principal, before, limit) => [
          ...(principal.mode === 'test'
            ? await list({ ...principal, mode: 'live' }, before, limit)
            : []),
          ...(await list(principal, before, limit)),
        ],
      },
    }),
  },
  {
    name: 'unknown-id-as-422',
    breaks: 'an order id that does not exist is answered 422 validation_failed',
    replaces: () => ({
      orderReads: {
        notFound: () => () =>
          new ApiProblem('validation_failed', 'The order id is not valid.', {
            errors: [{ detail: 'No order has this id.', pointer: 'id' }],
          }),
      },
    }),
  },
  {
    name: 'events-read-across-modes',
    breaks: "GET /events/{id} reads the account's event of the other mode",
    replaces: ({ ctx }) => ({
      beforeHandler: answeredBefore('GET', '/events/:id', async ({ account, mode }, id) => {
        if (await ctx.store.events.get(account.id, mode, id)) return undefined;
        const other = await ctx.store.events.get(account.id, otherMode(mode), id);
        return other ? eventView(other) : undefined;
      }),
    }),
  },
  {
    name: 'webhook-endpoint-deleted-across-modes',
    breaks: "DELETE /webhook-endpoints/{id} deletes the account's endpoint of the other mode",
    replaces: ({ ctx }) => ({
      beforeHandler: answeredBefore(
        'DELETE',
        '/webhook-endpoints/:id',
        async ({ account, mode, now }, id) => {
          const endpoints = ctx.store.webhookEndpoints;
          if (await endpoints.get(account.id, mode, id)) return undefined;
          const other = await endpoints.get(account.id, otherMode(mode), id);
          if (!other) return undefined;
          await endpoints.delete(other.id, now);
          return null;
        },
      ),
    }),
  },
  {
    name: 'shipments-across-modes',
    breaks: "the shipments of the account's order of the other mode are listed",
    replaces: ({ ctx }) => ({
      beforeHandler: answeredBefore('GET', '/orders/:id/shipments', async (principal, id) => {
        const order = await orderElsewhere(ctx, principal, id, () =>
          ctx.store.orders.get(principal.account.id, otherMode(principal.mode), id),
        );
        return order ? shipmentsOf(ctx, order) : undefined;
      }),
    }),
  },
  {
    name: 'other-account-invoice-visible',
    breaks: "GET the invoice of another account's order answers it",
    replaces: ({ ctx, wide }) => ({
      beforeHandler: answeredBefore('GET', '/orders/:id/invoice', async (principal, id) => {
        const order = await orderElsewhere(ctx, principal, id, () =>
          anyAccountsOrder(ctx, wide, principal.mode, id),
        );
        return order ? invoiceOf(ctx, order) : undefined;
      }),
    }),
  },
  {
    name: 'other-account-events-visible',
    breaks: "GET /events/{id} reads another account's event of the mode",
    replaces: ({ ctx }) => {
      // The accounts seen calling this app: where the lookup looks after the caller's.
      const seen = new Set<string>();
      const event = answeredBefore('GET', '/events/:id', async ({ account, mode }, id) => {
        if (await ctx.store.events.get(account.id, mode, id)) return undefined;
        for (const accountId of seen) {
          const found = await ctx.store.events.get(accountId, mode, id);
          if (found) return eventView(found);
        }
        return undefined;
      });
      return {
        beforeHandler: (app) => {
          app.addHook('preHandler', async (request) => {
            if (request.principal) seen.add(request.principal.account.id);
          });
          event(app);
        },
      };
    },
  },
  {
    name: 'other-account-webhook-endpoint-readable',
    breaks: "GET /webhook-endpoints/{id} reads another account's endpoint of the mode",
    replaces: ({ ctx }) => {
      const seen = new Set<string>();
      const read = answeredBefore(
        'GET',
        '/webhook-endpoints/:id',
        async ({ account, mode }, id) => {
          const endpoints = ctx.store.webhookEndpoints;
          if (await endpoints.get(account.id, mode, id)) return undefined;
          for (const accountId of seen) {
            const found = await endpoints.get(accountId, mode, id);
            if (found) return webhookEndpointView(found);
          }
          return undefined;
        },
      );
      return {
        beforeHandler: (app) => {
          app.addHook('preHandler', async (request) => {
            if (request.principal) seen.add(request.principal.account.id);
          });
          read(app);
        },
      };
    },
  },
  {
    // A route that reads a field of the order it did not find anywhere.
    name: 'unknown-order-shipments-500',
    breaks: 'the shipments of an order id that no order has anywhere answer 500 internal_error',
    replaces: ({ wide }) => ({
      beforeHandler: answeredBefore('GET', '/orders/:id/shipments', async (_principal, id) => {
        if (
          (await wide.orderAccount(id, 'test')) !== undefined ||
          (await wide.orderAccount(id, 'live')) !== undefined
        )
          return undefined;
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      }),
    }),
  },
]);
