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
]);
