import type { PlaceOrderBehaviour } from '../../orders/place-order.js';
import type { HasDefect } from '../catalogue.js';

/**
 * `order-unknown-sku-accepted`, `order-freight-accepted`,
 * `order-min-quantity-ignored`, `order-non-us-accepted`: the correct §4 rules
 * of orders/price-items.ts, shown a product list and country bent so that a
 * broken rule goes unseen.
 */
export function bentPriceItems(
  correct: PlaceOrderBehaviour['priceItems'],
  hasDefect: HasDefect,
): PlaceOrderBehaviour['priceItems'] {
  return (settings, items, country) => {
    const known = new Set(settings.products.map((product) => product.sku));
    const unknown = hasDefect('order-unknown-sku-accepted')
      ? items
          .filter((item) => !known.has(item.sku))
          .map((item) => ({
            sku: item.sku,
            name: item.sku,
            unit_price: 0,
            min_quantity: 1,
            ships_by_freight: false,
          }))
      : [];
    const products = settings.products.map((product) => ({
      ...product,
      ships_by_freight: product.ships_by_freight && !hasDefect('order-freight-accepted'),
      min_quantity: hasDefect('order-min-quantity-ignored') ? 0 : product.min_quantity,
    }));
    return correct(
      { ...settings, products: [...products, ...unknown] },
      items,
      hasDefect('order-non-us-accepted') ? 'US' : country,
    );
  };
}
