import {
  MONEY_PLACES,
  type MoneyFormat,
  type MoneyFormats,
  type MoneyPlace,
} from '../../target/dialect.js';
import { moneyOf } from '../infer.js';
import type { Steps } from './shared.js';

/**
 * The money format of each place seen (the maximum order value, a price, a
 * total): the totals' format (else the first seen) for every place, and each
 * place that shows another stated apart. A place never seen follows it, named
 * in the final TODO.
 */
export function moneyPlaces(s: Steps): void {
  const { d, draft } = s;
  const formats = new Map<MoneyPlace, MoneyFormat>();
  for (const { place, value, where } of s.money) {
    const found = moneyOf(value, where);
    if ('todo' in found)
      draft.todos.push(found.todo.replace('dialect.money:', `dialect.money.${place}:`));
    else formats.set(place, found.value);
  }
  const every = formats.get('totals') ?? formats.get('prices') ?? formats.get('maxOrderValue');
  if (every === undefined) {
    draft.todos.push(
      'dialect.money: not seen (no maximum order value, price or total was found where the profile says); write the format of your totals and prices',
    );
    return;
  }
  const money: MoneyFormats = { ...every };
  for (const place of MONEY_PLACES) {
    const own = formats.get(place);
    if (own === undefined) {
      draft.todos.push(
        `dialect.money.${place}: not seen; written as the format of every place (${every.format})`,
      );
      continue;
    }
    s.got(`money.${place}`);
    const differs = Object.fromEntries(
      (['format', 'amount', 'currency'] as const)
        .filter((m) => own[m] !== every[m] && (own.format === 'object' || m === 'format'))
        .map((m) => [m, own[m]]),
    );
    if (Object.keys(differs).length > 0) money[place] = differs;
  }
  d.money = money;
  s.got('money.format', 'money.amount', 'money.currency');
}
