import type { CheckContext } from '../../lib/check/index.js';
import { quoteBodyFor } from '../../lib/check/order-body.js';
import type { OrderCatalog } from './catalog.js';
import { cheapestLine, type OrderLine, orderSpec } from './order-body.js';

/**
 * Contract section 2: `POST /quotes` takes lines and a shipping address like
 * an order, without `external_id`; the dialect's `quoteBody` says where each
 * goes (by default where its order body puts them).
 */
export function quoteBody(
  ctx: Pick<CheckContext, 'faker' | 'dialect'>,
  catalog: OrderCatalog,
  items: OrderLine[] = [cheapestLine(catalog)],
): Record<string, unknown> {
  // Made like an order's spec, so that the run's faker draws stay those of an order.
  return quoteBodyFor(ctx.dialect.quoteBody, orderSpec(ctx, catalog, { items }));
}
