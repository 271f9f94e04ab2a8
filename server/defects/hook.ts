import { API_BASE } from '../config/api.js';
import { FROM_START, page } from '../http/query.js';
import { webhookEndpointView } from '../views/events.js';
import { defectsOf } from './defect.js';

/** §6 webhook endpoints and events. */
export const HOOK_DEFECTS = defectsOf('HOOK', [
  {
    name: 'sixth-webhook-endpoint-accepted',
    breaks: 'a sixth webhook endpoint in one mode is accepted',
    replaces: () => ({ webhookEndpoints: { limit: (limit) => limit + 1 } }),
  },
  {
    name: 'webhook-limit-across-modes',
    breaks: 'the five webhook endpoints are counted across both modes',
    replaces: ({ wide }) => ({
      webhookEndpoints: {
        countTowardLimit: () => (accountId) =>
          wide.endpointCount(accountId, { withDeleted: false }),
      },
    }),
  },
  {
    name: 'deleted-endpoints-counted',
    breaks: 'deleted webhook endpoints count toward the five',
    replaces: ({ wide }) => ({
      webhookEndpoints: {
        countTowardLimit: () => (accountId, mode) =>
          wide.endpointCount(accountId, { mode, withDeleted: true }),
      },
    }),
  },
  {
    name: 'events-without-webhooks-scope',
    breaks: 'GET /events serves any token, webhooks:manage or not',
    replaces: () => ({ scopes: { events: () => null } }),
  },
  {
    name: 'webhook-endpoints-listed-across-modes',
    breaks: "GET /webhook-endpoints lists both modes' endpoints (the limit still counts one mode)",
    replaces: ({ ctx }) => ({
      // As a list that forgot the mode in its query would; the first page only, which is all a
      // fresh account has.
      beforeHandler: (app) => {
        app.addHook('preHandler', async (request, reply) => {
          const { principal } = request;
          if (
            principal === null ||
            request.method !== 'GET' ||
            request.routeOptions.url !== `${API_BASE}/webhook-endpoints` ||
            'starting_after' in (request.query as object)
          )
            return;
          const endpoints = ctx.store.webhookEndpoints;
          const rows = [
            ...(await endpoints.page(principal.account.id, 'test', FROM_START, 101)),
            ...(await endpoints.page(principal.account.id, 'live', FROM_START, 101)),
          ];
          return reply.send(page(rows, 100, webhookEndpointView));
        });
      },
    }),
  },
  {
    name: 'webhook-scope-on-collections-only',
    breaks: 'one webhook endpoint (read, delete) and one event are served without webhooks:manage',
    replaces: () => ({ scopes: { webhookEndpoint: () => null, event: () => null } }),
  },
  {
    name: 'unknown-endpoint-deleted',
    breaks: 'DELETE of an unknown webhook endpoint id answers 204, as if it had deleted one',
    replaces: ({ ctx }) => ({
      // An idempotent delete: after the bearer gate (the principal is known), before the route looks.
      beforeHandler: (app) => {
        app.addHook('preHandler', async (request, reply) => {
          if (
            request.method !== 'DELETE' ||
            request.routeOptions.url !== `${API_BASE}/webhook-endpoints/:id` ||
            request.principal === null
          )
            return;
          const { account, mode } = request.principal;
          const { id } = request.params as { id: string };
          if ((await ctx.store.webhookEndpoints.get(account.id, mode, id)) === undefined)
            return reply.code(204).send();
        });
      },
    }),
  },
]);
