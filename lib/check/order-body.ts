import { randomUUID } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { Product } from './context.js';
import { usAddress } from './us-address.js';

/**
 * A valid order body in the reference dialect (target contract, section 2):
 * the cheapest product that is not shipped by freight, at its minimum
 * quantity, to a US address. Valid by every rule of section 4.
 */
export function validOrderBody(
  products: readonly Product[],
  faker: Faker,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const cost = (p: Product) => cents(p.unit_price) * Math.max(1, p.min_quantity);
  const product = [...products]
    .filter((p) => !p.ships_by_freight)
    .sort((a, b) => cost(a) - cost(b))[0];
  if (!product) throw new Error('the account has no product that ships without freight');
  return {
    // Not from the seed alone: a partner's sandbox keeps orders between runs, and
    // the same --seed must not collide with last night's external ids.
    external_id: `ext-${faker.string.alphanumeric(8)}-${randomUUID().slice(0, 8)}`,
    items: [{ sku: product.sku, quantity: Math.max(1, product.min_quantity) }],
    shipping_address: usAddress(faker),
    ...overrides,
  };
}

/** The control protocol gives prices in cents; the API shows money objects (target contract, section 2). */
function cents(price: Product['unit_price'] | { amount: number }): number {
  return typeof price === 'number' ? price : Number(price?.amount ?? 0);
}
