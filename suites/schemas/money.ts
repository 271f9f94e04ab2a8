import { z } from 'zod';
import type { MoneyFormat } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';

/**
 * Money in the profile's format (`dialect.money`): the reference's object
 * (amount and currency at its pointers), integer cents, or a decimal string.
 */
export function moneySchema(money: MoneyFormat): z.ZodType {
  switch (money.format) {
    case 'object':
      return objectAt([
        [money.amount, z.number().int()],
        [money.currency, z.literal('USD')],
      ]);
    case 'cents':
      return z.number().int();
    case 'decimal':
      return z.string().regex(/^-?\d+(\.\d{1,2})?$/, 'a decimal string of dollars such as "12.34"');
  }
}
