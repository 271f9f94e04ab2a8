import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal.js';
import { API_BASE } from '../config/api.js';
import type { Product } from '../domain/products.js';
import { parseJsonBody, readJsonBody } from '../http/body.js';
import { checkAccountLimits } from '../orders/account-limits.js';
import { priceItems } from '../orders/price-items.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { OrderCreateBehaviour } from '../routes/orders-create.js';
import {
  type OrderBody,
  OrderBodySchema,
  parseBody,
  QuoteBodySchema,
} from '../validation/order-body.js';
import { orderView } from '../views/order.js';
import { defectsOf } from './defect.js';

type Fields = Record<string, unknown>;

/**
 * The order body as a lenient server reads it: patched up before validation,
 * so that what should be refused gets through.
 */
function patchedBody(patch: (fields: Fields) => Fields) {
  return () =>
    (request: FastifyRequest): { body: unknown; input: OrderBody } => {
      const json = readJsonBody(request);
      const body =
        json !== null && typeof json === 'object' && !Array.isArray(json)
          ? patch({ ...(json as Fields) })
          : json;
      return { body, input: parseBody(OrderBodySchema, body) };
    };
}

/**
 * A route of `POST` that reads its body as JSON whatever the client said it
 * is, as a server with one JSON body parser for every request would.
 */
function readAsJson(route: string) {
  return (app: FastifyInstance): void => {
    app.addHook('preHandler', async (request) => {
      if (request.method === 'POST' && request.routeOptions.url === `${API_BASE}${route}`)
        request.headers['content-type'] = 'application/json';
    });
  };
}

type Priced = OrderCreateBehaviour['priceItems'];

/**
 * Rules 1, 2 and 4 checked on the first line only, as a server that reads
 * `items[0]` would: each product a later line names (and the first does not)
 * is as `relax` makes it; with `unlisted`, a SKU not on the list is a free placeholder.
 */
function firstLineOnly(relax: (product: Product) => Product, unlisted = false) {
  return () => ({
    orders: {
      priceItems:
        (priceItems: Priced): Priced =>
        (settings, items, country) => {
          const first = items[0]?.sku;
          const later = new Set(items.slice(1).map((item) => item.sku));
          later.delete(first ?? '');
          const products = settings.products.map((p) => (later.has(p.sku) ? relax(p) : p));
          const listed = new Set(products.map((p) => p.sku));
          const placeholders = [...later]
            .filter((sku) => unlisted && !listed.has(sku))
            .map((sku) =>
              relax({ sku, name: sku, unit_price: 0, min_quantity: 1, ships_by_freight: false }),
            );
          return priceItems(
            { ...settings, products: [...products, ...placeholders] },
            items,
            country,
          );
        },
    },
  });
}

const ORDER_FIELDS = new Set(['external_id', 'items', 'shipping_address']);

/** §4 rules 1–5 and the order body, §8 daily limits, the order reads' field errors. */
export const ORDER_DEFECTS = defectsOf('ORDER', [
  {
    name: 'order-any-media-type',
    breaks: 'an order body is read as JSON whatever its Content-Type',
    replaces: () => ({
      orders: {
        readOrderBody: () => (request) => {
          const body = parseJsonBody(request);
          return { body, input: parseBody(OrderBodySchema, body) };
        },
      },
    }),
  },
  {
    name: 'order-external-id-optional',
    breaks: 'an order without external_id is given one',
    replaces: () => {
      let generated = 0;
      return {
        orders: {
          readOrderBody: patchedBody((fields) => {
            if ('external_id' in fields) return fields;
            generated += 1;
            return { ...fields, external_id: `generated-${Date.now()}-${generated}` };
          }),
        },
      };
    },
  },
  {
    name: 'order-postal-code-optional',
    breaks: 'shipping_address.postal_code is not required',
    replaces: () => ({
      orders: {
        readOrderBody: patchedBody((fields) => {
          const address = fields.shipping_address;
          return address !== null &&
            typeof address === 'object' &&
            !Array.isArray(address) &&
            !('postal_code' in address)
            ? { ...fields, shipping_address: { ...address, postal_code: '00000' } }
            : fields;
        }),
      },
    }),
  },
  {
    name: 'order-unknown-field-ignored',
    breaks: 'unknown top-level fields of an order are dropped, not refused',
    replaces: () => ({
      orders: {
        readOrderBody: patchedBody((fields) =>
          Object.fromEntries(Object.entries(fields).filter(([name]) => ORDER_FIELDS.has(name))),
        ),
      },
    }),
  },
  {
    name: 'order-unknown-sku-accepted',
    breaks: 'a SKU not on the product list is ordered at no charge',
    replaces: () => ({
      orders: {
        priceItems: (priceItems) => (settings, items, country) => {
          const known = new Set(settings.products.map((product) => product.sku));
          const unknown = items
            .filter((item) => !known.has(item.sku))
            .map((item) => ({
              sku: item.sku,
              name: item.sku,
              unit_price: 0,
              min_quantity: 1,
              ships_by_freight: false,
            }));
          return priceItems(
            { ...settings, products: [...settings.products, ...unknown] },
            items,
            country,
          );
        },
      },
    }),
  },
  {
    // A server that checks SKUs against one catalogue of every product any account lists.
    name: 'order-sku-from-any-account',
    breaks: "a SKU on another account's product list is accepted",
    replaces: () => {
      // Every product seen on an account's list while pricing, by SKU.
      const catalogue = new Map<string, Product>();
      return {
        orders: {
          priceItems: (priceItems) => (settings, items, country) => {
            for (const product of settings.products) catalogue.set(product.sku, product);
            const own = new Set(settings.products.map((product) => product.sku));
            const borrowed = items.flatMap((item) => {
              const product = own.has(item.sku) ? undefined : catalogue.get(item.sku);
              return product ? [product] : [];
            });
            return priceItems(
              { ...settings, products: [...settings.products, ...borrowed] },
              items,
              country,
            );
          },
        },
      };
    },
  },
  {
    name: 'order-sku-checked-on-first-line',
    breaks: 'a SKU not on the list is refused on the first line only; on a later one it is free',
    replaces: firstLineOnly((product) => product, true),
  },
  {
    name: 'order-minimum-checked-on-first-line',
    breaks: "a quantity under the product's minimum is refused on the first line only",
    replaces: firstLineOnly((product) => ({ ...product, min_quantity: 0 })),
  },
  {
    name: 'order-freight-checked-on-first-line',
    breaks: 'a freight product is refused on the first line only',
    replaces: firstLineOnly((product) => ({ ...product, ships_by_freight: false })),
  },
  {
    name: 'order-min-quantity-ignored',
    breaks: "a quantity under the product's minimum is accepted",
    replaces: () => ({
      orders: {
        priceItems: (priceItems) => (settings, items, country) =>
          priceItems(
            {
              ...settings,
              products: settings.products.map((product) => ({ ...product, min_quantity: 0 })),
            },
            items,
            country,
          ),
      },
    }),
  },
  {
    name: 'order-non-us-accepted',
    breaks: 'an address outside the US is accepted',
    replaces: () => ({
      orders: {
        priceItems: (priceItems) => (settings, items) => priceItems(settings, items, 'US'),
      },
    }),
  },
  {
    name: 'order-freight-accepted',
    breaks: 'a freight-shipped product is accepted',
    replaces: () => ({
      orders: {
        priceItems: (priceItems) => (settings, items, country) =>
          priceItems(
            {
              ...settings,
              products: settings.products.map((product) => ({
                ...product,
                ships_by_freight: false,
              })),
            },
            items,
            country,
          ),
      },
    }),
  },
  {
    name: 'order-max-value-ignored',
    breaks: 'an order over the maximum order value is accepted',
    replaces: () => ({
      orders: {
        checkAccountLimits: (check) => (settings, total, ordersToday) =>
          check(
            {
              ...settings,
              limits: { ...settings.limits, max_order_value: Number.POSITIVE_INFINITY },
            },
            total,
            ordersToday,
          ),
      },
    }),
  },
  {
    name: 'order-max-value-exclusive',
    breaks: 'an order of exactly the maximum order value is refused',
    replaces: () => ({
      orders: {
        // Whole cents: `total + 1 > max` is `total >= max`, a total at the limit refused.
        checkAccountLimits: (check) => (settings, total, ordersToday) =>
          check(settings, total + 1, ordersToday),
      },
    }),
  },
  {
    // A limit compared in whole dollars: a total a few cents over the maximum passes.
    name: 'order-max-value-whole-dollars',
    breaks: 'the maximum order value is compared in whole dollars: one cent over is accepted',
    replaces: () => ({
      orders: {
        checkAccountLimits: (check) => (settings, total, ordersToday) =>
          check(settings, Math.floor(total / 100) * 100, ordersToday),
      },
    }),
  },
  {
    // One limit check shared by orders and quotes, off by one: a quote then refuses the very
    // order whose total a client (or a check) asks it for.
    name: 'order-max-value-exclusive-quotes-too',
    breaks: 'an order, and a quote, of exactly the maximum order value are refused',
    replaces: ({ ctx }) => ({
      orders: {
        checkAccountLimits: (check) => (settings, total, ordersToday) =>
          check(settings, total + 1, ordersToday),
      },
      beforeHandler: (app) => {
        app.addHook('preHandler', async (request) => {
          if (request.method !== 'POST' || request.routeOptions.url !== `${API_BASE}/quotes`)
            return;
          let priced: { total: number };
          const { account } = principalOf(request);
          try {
            const input = parseBody(QuoteBodySchema, readJsonBody(request));
            priced = priceItems(account.settings, input.items, input.shipping_address.country);
          } catch {
            return; // The route refuses what is not a valid quote, as the correct server does.
          }
          checkAccountLimits(account.settings, priced.total + ctx.shippingCents + 1, 0);
        });
      },
    }),
  },
  {
    name: 'orders-per-day-ignored',
    breaks: 'the maximum orders per day is not enforced',
    replaces: () => ({
      orders: {
        checkAccountLimits: (check) => (settings, total, ordersToday) =>
          check(
            {
              ...settings,
              limits: { ...settings.limits, max_orders_per_day: Number.POSITIVE_INFINITY },
            },
            total,
            ordersToday,
          ),
      },
    }),
  },
  {
    // A daily counter that is never reset: the first day's count stands for every later day.
    name: 'orders-per-day-never-reset',
    breaks:
      "the orders-per-day count never resets: the first day's orders count on every later day",
    replaces: () => {
      // The first day an account's mode was counted.
      const firstDay = new Map<string, string>();
      return {
        orders: {
          ordersToday: (count) => (accountId, mode, day) => {
            const first = firstDay.get(`${accountId}|${mode}`) ?? day;
            firstDay.set(`${accountId}|${mode}`, first);
            return count(accountId, mode, first);
          },
        },
      };
    },
  },
  {
    name: 'orders-per-day-skips-cancelled',
    breaks: 'cancelled orders do not count toward orders per day',
    replaces: ({ wide }) => ({
      orders: {
        ordersToday: (count) => async (accountId, mode, day) =>
          (await count(accountId, mode, day)) - (await wide.cancelledOnDay(accountId, mode, day)),
      },
    }),
  },
  {
    name: 'orders-per-day-across-modes',
    breaks: "orders per day count both modes' orders",
    replaces: ({ wide }) => ({
      orders: {
        ordersToday: () => (accountId, _mode, day) => wide.ordersOnDayAllModes(accountId, day),
      },
    }),
  },
  {
    name: 'duplicate-external-id-unchecked',
    breaks: 'a used external_id is not refused 409 (the database answers 500)',
    replaces: () => ({ orders: { externalIdTaken: () => () => Promise.resolve(false) } }),
  },
  {
    // A server that frees an external_id when its order is cancelled (unique among live orders);
    // the database's unique index then refuses the insert.
    name: 'external-id-freed-by-cancel',
    breaks: "a cancelled order's external_id is not refused 409 (the database answers 500)",
    replaces: ({ ctx }) => ({
      orders: {
        externalIdTaken: () => async (accountId, mode, externalId) => {
          const order = await ctx.store.orders.getByExternalId(accountId, mode, externalId);
          return order !== undefined && order.status !== 'cancelled';
        },
      },
    }),
  },
  {
    // A server that deduplicates identical bodies whatever their Idempotency-Key.
    name: 'external-id-identical-body-replayed',
    breaks: 'the same order body under a new Idempotency-Key replays the first order (200)',
    replaces: () => {
      // The fingerprint of the request that placed each `account|mode|external_id`.
      const placed = new Map<string, Buffer>();
      return {
        orders: {
          place: (place) => async (app, request, principal, key, fingerprint, input, behave) => {
            const name = `${principal.account.id}|${principal.mode}|${input.external_id}`;
            const earlier = placed.get(name);
            if (earlier?.equals(fingerprint)) {
              const order = await app.store.orders.getByExternalId(
                principal.account.id,
                principal.mode,
                input.external_id,
              );
              if (order) return { order, view: orderView(order), replayed: true };
            }
            const result = await place(app, request, principal, key, fingerprint, input, behave);
            if (!result.replayed) placed.set(name, fingerprint);
            return result;
          },
        },
      };
    },
  },
  {
    name: 'by-external-id-not-served',
    breaks: 'GET /orders/by-external-id/{external_id} answers 404 not_found for every order',
    replaces: () => ({
      orderReads: { lookupByExternalId: () => () => Promise.resolve(undefined) },
    }),
  },
  {
    name: 'by-external-id-undecoded',
    breaks: 'GET /orders/by-external-id compares the still-encoded path',
    replaces: () => ({
      orderReads: {
        externalIdOf: () => (request) => request.url.split('?')[0]?.split('/').pop() ?? '',
      },
    }),
  },
  {
    name: 'order-zip4-refused',
    breaks: 'a ZIP+4 postal code (12345-6789) is refused',
    replaces: () => ({
      orders: {
        // A postal code check that knows only five-digit ZIP codes.
        readOrderBody: (readBody) => (request) => {
          const read = readBody(request);
          if (/^\d{5}-\d{4}$/.test(read.input.shipping_address.postal_code)) {
            throw new ApiProblem(
              'validation_failed',
              'The request body is not valid; see errors.',
              {
                errors: [
                  {
                    detail: 'postal_code must be a five-digit ZIP code.',
                    pointer: '/shipping_address/postal_code',
                  },
                ],
              },
            );
          }
          return read;
        },
      },
    }),
  },
  {
    name: 'validation-errors-empty',
    breaks: 'an order refused 422 validation_failed lists nothing in errors[]',
    replaces: () => ({
      answer: (answer) => {
        const { request, body } = answer;
        if (
          answer.problem &&
          body.code === 'validation_failed' &&
          request.method === 'POST' &&
          request.routeOptions.url?.endsWith('/orders') === true
        )
          answer.body = { ...body, errors: [] };
      },
    }),
  },
  {
    name: 'problem-errors-without-pointer',
    breaks: 'errors[] entries carry a detail but no pointer to the field',
    replaces: () => ({
      answer: (answer) => {
        const { errors } = answer.body;
        if (answer.problem && Array.isArray(errors))
          answer.body = {
            ...answer.body,
            errors: (errors as { detail: string }[]).map(({ detail }) => ({ detail })),
          };
      },
    }),
  },
  {
    name: 'line-errors-without-pointer',
    breaks: "errors[] entries of a line's SKU, quantity or freight refusal carry no pointer",
    replaces: () => ({
      answer: (answer) => {
        const { errors } = answer.body;
        if (!answer.problem || !Array.isArray(errors)) return;
        const line = /^\/items\/\d+\/(sku|quantity)$/;
        answer.body = {
          ...answer.body,
          errors: (errors as { detail: string; pointer?: string }[]).map((entry) =>
            entry.pointer !== undefined && line.test(entry.pointer)
              ? { detail: entry.detail }
              : entry,
          ),
        };
      },
    }),
  },
  {
    // A scoped statement applied too widely, so the check must test its scope's edge: §4 rule 4
    // says unique per account.
    name: 'external-id-unique-across-accounts',
    breaks: 'an external_id used in another account is refused with 409 duplicate_external_id',
    replaces: ({ wide }) => ({
      orders: {
        externalIdTaken: (taken) => async (accountId, mode, externalId) =>
          (await taken(accountId, mode, externalId)) ||
          (await wide.externalIdAccount(externalId, mode)) !== undefined,
      },
    }),
  },
  {
    name: 'quote-any-media-type',
    breaks: 'a quote body is read as JSON whatever its Content-Type',
    replaces: () => ({ beforeHandler: readAsJson('/quotes') }),
  },
  {
    name: 'webhook-endpoint-any-media-type',
    breaks: 'a webhook endpoint body is read as JSON whatever its Content-Type',
    replaces: () => ({ beforeHandler: readAsJson('/webhook-endpoints') }),
  },
]);
