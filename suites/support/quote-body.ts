import type { Faker } from '@faker-js/faker';
import type { OrderCatalog } from './catalog.js';
import { cheapestLine, type OrderLine, orderBody } from './order-body.js';

/** Contract section 2: `POST /quotes` takes `{items, shipping_address}`. */
export function quoteBody(
  faker: Faker,
  catalog: OrderCatalog,
  items: OrderLine[] = [cheapestLine(catalog)],
): { items: OrderLine[]; shipping_address: ReturnType<typeof orderBody>['shipping_address'] } {
  const { shipping_address } = orderBody(faker, catalog, { items });
  return { items, shipping_address };
}
