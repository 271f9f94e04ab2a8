import { money } from '../domain/money.js';
import type { Product } from '../domain/products.js';

/** Contract §2 product: `{sku, name, unit_price, min_quantity, ships_by_freight}`. */
export function productView(product: Product) {
  return {
    sku: product.sku,
    name: product.name,
    unit_price: money(product.unit_price),
    min_quantity: product.min_quantity,
    ships_by_freight: product.ships_by_freight,
  };
}
