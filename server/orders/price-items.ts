import type { AccountSettings } from '../domain/account-settings.js';
import type { PricedItem } from '../domain/order.js';
import { ApiProblem, type FieldError } from '../problems/api-problem.js';
import type { ItemInput } from '../validation/order-body.js';

/** ISO 3166-1 alpha-2 code of the one country orders ship to (§1, §4 rule 3). */
const US = 'US';

/**
 * §4 rules 1–4 for an order or a quote: every SKU on the account's product
 * list, each quantity at least the product's minimum, a US address, no
 * freight product. Every broken rule is one `errors[]` entry of one 422.
 */
export function priceItems(
  settings: AccountSettings,
  items: readonly ItemInput[],
  country: string,
): { items: PricedItem[]; total: number } {
  const errors: FieldError[] = [];
  const priced: PricedItem[] = [];
  let total = 0;
  items.forEach((item, index) => {
    const product = settings.products.find((p) => p.sku === item.sku);
    if (!product) {
      // Rule 1.
      errors.push({
        detail: `SKU ${item.sku} is not on the account's product list.`,
        pointer: `/items/${index}/sku`,
      });
      return;
    }
    if (product.ships_by_freight) {
      // Rule 4 (§1: products that ship by freight cannot be ordered).
      errors.push({
        detail: `SKU ${item.sku} ships by freight; freight products cannot be ordered.`,
        pointer: `/items/${index}/sku`,
      });
    }
    if (item.quantity < product.min_quantity) {
      // Rule 2.
      errors.push({
        detail: `Quantity ${item.quantity} of ${item.sku} is under its minimum of ${product.min_quantity}.`,
        pointer: `/items/${index}/quantity`,
      });
    }
    const amount = product.unit_price * item.quantity;
    total += amount;
    priced.push({ sku: item.sku, quantity: item.quantity, unit_price: product.unit_price, amount });
  });
  if (country !== US) {
    // Rule 3 (§1: orders are limited to addresses in the US).
    errors.push({
      detail: `Orders ship only to addresses in the US (country "US"); got "${country}".`,
      pointer: '/shipping_address/country',
    });
  }
  if (errors.length > 0) {
    throw new ApiProblem(
      'validation_failed',
      "The order breaks the account's order rules; see errors.",
      {
        errors,
      },
    );
  }
  return { items: priced, total };
}
