import type { FastifyInstance } from 'fastify';
import { tokenGate } from '../auth/bearer.js';
import type { Behaviour } from '../behaviour.js';
import type { AppContext } from '../context.js';
import { accountRoutes } from './account.js';
import { catalogRoutes } from './catalog.js';
import { eventRoutes } from './events.js';
import { orderCancelRoutes } from './orders-cancel.js';
import { orderCreateRoutes } from './orders-create.js';
import { orderReadRoutes } from './orders-read.js';
import { quoteRoutes } from './quotes.js';
import { tokenRoutes } from './token.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';

/**
 * Every route of the API document (§4), to be registered under
 * `/api/on-demand/v1`, each handed its part of the app's behaviour.
 */
export function apiRoutes(ctx: AppContext, behaviour: Behaviour) {
  return async (app: FastifyInstance): Promise<void> => {
    const gate = tokenGate(ctx, behaviour.credentials, behaviour.scopes);
    await app.register(tokenRoutes(ctx, behaviour.credentials));
    await app.register(accountRoutes(gate));
    await app.register(catalogRoutes(gate));
    await app.register(quoteRoutes(ctx, gate, behaviour.quotes));
    await app.register(orderCreateRoutes(ctx, gate, behaviour.orders));
    await app.register(orderReadRoutes(ctx, gate, behaviour.orderReads));
    await app.register(orderCancelRoutes(ctx, gate, behaviour.cancel, behaviour.orderReads));
    await app.register(webhookEndpointRoutes(ctx, gate, behaviour.webhookEndpoints));
    await app.register(eventRoutes(ctx, gate));
  };
}
