import type { AppContext } from '../context.js';
import {
  type WebhookEndpointBehaviour,
  webhookEndpointBehaviour,
} from '../routes/webhook-endpoints.js';
import { endpointsCountedWidely } from './lookups.js';

/**
 * The webhook endpoint limit (routes/webhook-endpoints.ts
 * `WebhookEndpointBehaviour`) of a defective server: plugged in as
 * `ctx.hooks.webhookEndpoints` only when defects are on.
 */
export function defectiveWebhookEndpointBehaviour(
  ctx: AppContext,
): Partial<WebhookEndpointBehaviour> {
  const correct = webhookEndpointBehaviour(ctx);
  const { hasDefect } = ctx;
  const acrossModes = hasDefect('webhook-limit-across-modes');
  const withDeleted = hasDefect('deleted-endpoints-counted');
  return {
    countTowardLimit: (accountId, mode) =>
      acrossModes || withDeleted
        ? endpointsCountedWidely(ctx.store, accountId, {
            ...(acrossModes ? {} : { mode }),
            withDeleted,
          })
        : correct.countTowardLimit(accountId, mode),
    limit: correct.limit + (hasDefect('sixth-webhook-endpoint-accepted') ? 1 : 0),
  };
}
