import type { AppContext, DefectHooks } from '../context.js';
import { defectiveCancel } from './cancel-order.js';
import { defectiveCredentials } from './credentials.js';
import { defectiveKeyBehaviour } from './key-behaviour.js';
import { defectiveOrderReads } from './order-reads.js';
import { defectiveOrderCreation } from './orders/create-order.js';
import { defectiveQuotes } from './quotes.js';
import { defectiveRequestChecks } from './request-hooks.js';
import { defectiveWebhookEndpointBehaviour } from './webhook-endpoint-limit.js';

/**
 * The typed hooks through which the test-only defect catalogue plugs into the
 * request path (context.ts `DefectHooks`). app.ts installs them only when a
 * defect is switched on; the correct server's hooks are empty.
 */
export function defectHooks(ctx: AppContext): DefectHooks {
  return {
    credentials: defectiveCredentials(ctx),
    orders: defectiveOrderCreation(ctx),
    cancelOrder: defectiveCancel(ctx.hasDefect),
    requestChecks: defectiveRequestChecks(ctx),
    controlKeys: defectiveKeyBehaviour(ctx),
    orderReads: defectiveOrderReads(ctx),
    quotes: defectiveQuotes(ctx),
    webhookEndpoints: defectiveWebhookEndpointBehaviour(ctx),
  };
}
