import type { FastifyInstance } from 'fastify';
import { API_BASE } from '../config/api.js';
import { orderNotFound } from '../routes/orders-read.js';
import type { HasDefect } from './catalogue.js';

/**
 * `shipments-not-found`: `GET /orders/{id}/shipments` answers 404 not_found
 * for an order the caller can read (§4: "Read shipments"), as a route that
 * looks the order up in the wrong place would. Before the handler, so the
 * problem is the server's own (its handler renders it).
 */
export function installShipmentsNotFound(app: FastifyInstance, hasDefect: HasDefect): void {
  if (!hasDefect('shipments-not-found')) return;
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' && request.routeOptions.url === `${API_BASE}/orders/:id/shipments`)
      throw orderNotFound();
  });
}
