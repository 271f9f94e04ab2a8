import type { Faker } from '@faker-js/faker';
import { type UsAddress, usAddress } from '../../lib/check/us-address.js';
import type { OrderCatalog } from './catalog.js';
import { uniqueExternalId } from './unique-external-id.js';

export interface OrderLine {
  sku: string;
  quantity: number;
}

/** An order body in the reference dialect (contract section 2). */
export interface OrderBody {
  external_id: string;
  items: OrderLine[];
  shipping_address: UsAddress;
  [field: string]: unknown;
}

/**
 * A valid order body (section 4, rules 1 to 5): by default the cheapest
 * product that does not ship by freight at its minimum quantity, to a US
 * address from faker, with an external_id no earlier order holds.
 */
export function orderBody(
  faker: Faker,
  catalog: OrderCatalog,
  options: { items?: OrderLine[]; externalId?: string } = {},
): OrderBody {
  return {
    external_id: options.externalId ?? uniqueExternalId(`ct-${faker.string.numeric(6)}`),
    items: options.items ?? [cheapestLine(catalog)],
    shipping_address: usAddress(faker),
  };
}

/** The cheapest valid line of the catalog: a product not shipped by freight, at its minimum. */
export function cheapestLine(catalog: OrderCatalog): OrderLine {
  const product = catalog.products
    .filter((p) => !p.shipsByFreight)
    .sort((a, b) => a.unitPrice * a.minQuantity - b.unitPrice * b.minQuantity)[0];
  if (!product) throw new Error('the catalog has no product that ships without freight');
  return { sku: product.sku, quantity: product.minQuantity };
}

/** The total of an order body at catalog prices, in cents (the reference charges no shipping). */
export function totalOf(catalog: OrderCatalog, items: readonly OrderLine[]): number {
  return items.reduce((sum, line) => {
    const product = catalog.products.find((p) => p.sku === line.sku);
    return sum + (product ? product.unitPrice * line.quantity : 0);
  }, 0);
}
