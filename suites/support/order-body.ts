import {
  type CheckContext,
  cheapestLine as cheapestOf,
  type OrderBody,
  type OrderCatalog,
  type OrderLine,
  type OrderSpec,
  orderBodyOf,
} from '../../lib/check/index.js';
import { usAddress } from '../../lib/check/us-address.js';
import { uniqueExternalId } from './unique-external-id.js';

export type { OrderBody, OrderLine };

/**
 * A valid order (section 4, rules 1 to 5): by default the cheapest product
 * that does not ship by freight at its minimum quantity, to a US address
 * from faker, with an external_id no earlier order holds.
 */
export function orderSpec(
  ctx: Pick<CheckContext, 'faker'>,
  catalog: OrderCatalog,
  options: { items?: OrderLine[]; externalId?: string } = {},
): OrderSpec {
  return {
    externalId: options.externalId ?? uniqueExternalId(`ct-${ctx.faker.string.numeric(6)}`),
    items: options.items ?? [cheapestLine(catalog)],
    address: usAddress(ctx.faker),
  };
}

/** The body of `orderSpec`'s order in the dialect of the run, made by the one order builder. */
export function orderBody(
  ctx: Pick<CheckContext, 'faker' | 'dialect'>,
  catalog: OrderCatalog,
  options: { items?: OrderLine[]; externalId?: string } = {},
): OrderBody {
  return orderBodyOf(ctx.dialect.orderBody, orderSpec(ctx, catalog, options));
}

/** The cheapest valid line of the catalog: a product not shipped by freight, at its minimum. */
export function cheapestLine(catalog: OrderCatalog): OrderLine {
  return cheapestOf(catalog.products);
}
