import { z } from 'zod';
import type { Dialect } from '../../lib/check/index.js';
import { moneyAt } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';
import { moneySchema } from './money.js';

/**
 * Contract section 2, catalog: a product is `{sku, name, unit_price,
 * min_quantity, ships_by_freight}`; a profile moves all but `name`
 * (`dialect.answers.product`) and says the money format.
 */
export function productSchema(dialect: Pick<Dialect, 'answers' | 'money'>): z.ZodType {
  const at = dialect.answers.product;
  return objectAt([
    [at.sku, z.string().min(1)],
    ['/name', z.string().min(1)],
    [at.unitPrice, moneySchema(moneyAt(dialect.money, 'prices'))],
    [at.minQuantity, z.number().int().min(1)],
    [at.shipsByFreight, z.boolean()],
  ]);
}
