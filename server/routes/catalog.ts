import type { FastifyInstance } from 'fastify';
import type { TokenGate } from '../auth/bearer.js';
import { principalOf } from '../auth/principal.js';
import { page, parseListQuery, refuseQuery, unknownCursor } from '../http/query.js';
import { ApiProblem } from '../problems/api-problem.js';
import { productView } from '../views/catalog.js';

/**
 * §4 `GET /catalog/…` (scope catalog:read), contract §2: `GET /catalog/products`
 * lists the account's product list in its order; `GET /catalog/products/{sku}`
 * reads one. Both modes see the same list.
 */
export function catalogRoutes(gate: TokenGate) {
  return async (app: FastifyInstance): Promise<void> => {
    const onRequest = gate('catalog');

    app.get('/catalog/products', { onRequest }, async (request) => {
      const { limit, startingAfter } = parseListQuery(request);
      const products = principalOf(request).account.settings.products;
      let start = 0;
      if (startingAfter !== undefined) {
        const index = products.findIndex((p) => p.sku === startingAfter);
        if (index === -1) throw unknownCursor();
        start = index + 1;
      }
      return page(products.slice(start, start + limit + 1), limit, productView);
    });

    app.get<{ Params: { sku: string } }>(
      '/catalog/products/:sku',
      { onRequest },
      async (request) => {
        refuseQuery(request);
        const product = principalOf(request).account.settings.products.find(
          (p) => p.sku === request.params.sku,
        );
        if (!product)
          throw new ApiProblem(
            'not_found',
            "No product with this SKU on the account's product list.",
          );
        return productView(product);
      },
    );
  };
}
