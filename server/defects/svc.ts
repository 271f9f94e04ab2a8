import { checkWritable } from '../auth/service-state.js';
import { API_BASE } from '../config/api.js';
import { hashSecret } from '../crypto/secret-hash.js';
import { chargedAnyway } from './charged-anyway.js';
import { defectsOf } from './defect.js';

/** §7 read_only and api_unavailable: service states. */
export const SVC_DEFECTS = defectsOf('SVC', [
  {
    name: 'read-only-orders-placed',
    breaks: 'while read_only, new orders are placed',
    replaces: () => ({
      orders: {
        checkCanPlaceOrders: (check) => (account) =>
          check(
            account.settings.service === 'read_only'
              ? { ...account, settings: { ...account.settings, service: 'normal' } }
              : account,
          ),
      },
    }),
  },
  {
    name: 'read-only-quotes-created',
    breaks: 'while read_only, new quotes are made',
    replaces: () => ({ quotes: { checkWritable: () => () => undefined } }),
  },
  {
    name: 'read-only-blocks-reads',
    breaks: 'while read_only, reads are refused too',
    replaces: () => ({
      credentials: {
        checkAccount: (check) => (account, use) => {
          check(account, use);
          if (use === 'read') checkWritable(account);
        },
      },
    }),
  },
  {
    name: 'read-only-blocks-tokens',
    breaks: 'while read_only, token requests are refused',
    replaces: () => ({
      credentials: {
        checkAccount: (check) => (account, use) => {
          check(account, use);
          if (use === 'token') checkWritable(account);
        },
      },
    }),
  },
  {
    name: 'read-only-order-charged',
    breaks: 'while read_only, a new order is refused with 503 but its card is charged all the same',
    replaces: (env) => ({
      orders: { place: chargedAnyway(env, (problem) => problem.code === 'read_only') },
    }),
  },
  {
    name: 'unavailable-ignored',
    breaks: 'while the API is switched off, calls are served',
    replaces: () => ({ credentials: { checkAccount: () => () => undefined } }),
  },
  {
    name: 'read-only-blocks-fulfilment-reads',
    breaks: 'while read_only, the shipments and the invoice of an order are refused with 503',
    replaces: () => ({
      // As a server whose fulfilment service pauses with writes: after the bearer gate.
      beforeHandler: (app) => {
        app.addHook('preHandler', async (request) => {
          const url = request.routeOptions.url ?? '';
          if (
            request.method === 'GET' &&
            request.principal !== null &&
            (url === `${API_BASE}/orders/:id/shipments` || url === `${API_BASE}/orders/:id/invoice`)
          )
            checkWritable(request.principal.account);
        });
      },
    }),
  },
  {
    name: 'unavailable-events-served',
    breaks: 'while the API is switched off, GET /events answers an empty list instead of 503',
    replaces: ({ ctx }) => ({
      // As an event list served apart (a replica that ignores maintenance): before the bearer gate.
      beforeHandler: (app) => {
        app.addHook('onRequest', async (request, reply) => {
          if (request.method !== 'GET' || request.routeOptions.url !== `${API_BASE}/events`) return;
          const token = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
          const row =
            token === undefined ? undefined : await ctx.store.tokens.get(hashSecret(token));
          const key = row === undefined ? undefined : await ctx.store.keys.get(row.key_id);
          const account =
            key === undefined ? undefined : await ctx.store.accounts.get(key.accountId);
          if (account?.settings.service === 'unavailable')
            return reply.code(200).send({ data: [], has_more: false });
        });
      },
    }),
  },
]);
