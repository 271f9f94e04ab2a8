import { type CheckContext, quoteBodyOf } from '../../lib/check/index.js';
import type { OrderCatalog } from './catalog.js';
import { cheapestLine, type OrderLine, orderBody } from './order-body.js';

/**
 * Contract section 2: `POST /quotes` takes `{items, shipping_address}`: the
 * order body of the dialect without its `external_id`, made by the one order
 * builder.
 */
export function quoteBody(
  ctx: Pick<CheckContext, 'faker' | 'dialect'>,
  catalog: OrderCatalog,
  items: OrderLine[] = [cheapestLine(catalog)],
): Record<string, unknown> {
  return quoteBodyOf(orderBody(ctx, catalog, { items }));
}
