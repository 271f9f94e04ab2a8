import { type CheckContext, escapeRegExp, type HttpResponse } from '../../lib/check/index.js';
import { problemTexts } from './problem-text.js';

/**
 * Section 7 `validation_failed` for an account limit: "the message names the
 * limit". Accepted: its name in words or as the field (`max_order_value`),
 * or its value as set for the account.
 */
export function expectNamesLimit(
  ctx: CheckContext,
  res: HttpResponse,
  limit: { name: RegExp; values: readonly string[]; what: string },
): boolean {
  const texts = problemTexts(res);
  const named = texts.some(
    (text) =>
      limit.name.test(text) ||
      limit.values.some((value) =>
        new RegExp(`(^|[^\\d.,])${escapeRegExp(value)}(?![\\d])`).test(text),
      ),
  );
  return ctx.expectTrue(named, {
    code: 'VALUE',
    pointer: '/body/detail',
    expected: `a detail naming ${limit.what}`,
    received: texts,
    message: `the refusal does not name the limit (${limit.what})`,
    exchange: res.exchange,
  });
}

/** The ways a cents amount may be written: 20000, 200, 200.00, 200.00 with thousands commas. */
export function amountForms(cents: number): string[] {
  const dollars = cents / 100;
  const fixed = dollars.toFixed(2);
  const forms = [String(cents), fixed, withCommas(fixed)];
  if (Number.isInteger(dollars)) forms.push(String(dollars), withCommas(String(dollars)));
  return [...new Set(forms)];
}

/**
 * `1234567.50` as `1,234,567.50`, as `toLocaleString('en-US')` writes it. By hand: Intl's number
 * formatting maps ICU's locale data into the process, megabytes of a run's memory for one format.
 */
function withCommas(amount: string): string {
  const dot = amount.indexOf('.');
  const whole = dot < 0 ? amount : amount.slice(0, dot);
  return whole.replace(/\B(?=(\d{3})+$)/g, ',') + (dot < 0 ? '' : amount.slice(dot));
}
