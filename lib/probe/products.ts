import type { Product } from '../control/types.js';
import { valueAt } from '../evidence/json-pointer.js';
import type { Dialect, MoneyFormat } from '../target/dialect.js';
import { moneyAt } from '../target/dialect.js';
import { moneyFormatOf } from './judge.js';

/**
 * The products of a catalog list answer, read where the dialect says (list
 * envelope, product pointers, money format), in the suite's one product type.
 * Entries without a SKU or a price are left out.
 */
export function productsIn(body: unknown, dialect: Dialect): Product[] {
  const items = valueAt(body, dialect.list.items);
  if (!Array.isArray(items)) return [];
  const at = dialect.answers.product;
  return items.flatMap((raw): Product[] => {
    const sku = valueAt(raw, at.sku);
    const unitPrice = centsOf(valueAt(raw, at.unitPrice), moneyAt(dialect.money, 'prices'));
    if (typeof sku !== 'string' || unitPrice === undefined) return [];
    const min = valueAt(raw, at.minQuantity);
    return [
      {
        sku,
        name: sku,
        unit_price: unitPrice,
        min_quantity: typeof min === 'number' && Number.isInteger(min) ? min : 1,
        ships_by_freight: valueAt(raw, at.shipsByFreight) === true,
      },
    ];
  });
}

/** Integer cents of a money value in any of the three formats, or undefined. */
function centsOf(value: unknown, money: MoneyFormat): number | undefined {
  switch (moneyFormatOf(value, money)) {
    case 'cents':
      return value as number;
    case 'decimal':
      return Math.round(Number(value) * 100);
    case 'object':
      return valueAt(value, money.amount) as number;
    default:
      return undefined;
  }
}
