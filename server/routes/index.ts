import type { FastifyInstance } from 'fastify';
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

/** Every route of the API document (§4), to be registered under `/api/on-demand/v1`. */
export function apiRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(tokenRoutes(ctx));
    await app.register(accountRoutes(ctx));
    await app.register(catalogRoutes(ctx));
    await app.register(quoteRoutes(ctx));
    await app.register(orderCreateRoutes(ctx));
    await app.register(orderReadRoutes(ctx));
    await app.register(orderCancelRoutes(ctx));
    await app.register(webhookEndpointRoutes(ctx));
    await app.register(eventRoutes(ctx));
  };
}
