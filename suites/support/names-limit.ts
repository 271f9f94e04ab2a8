import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
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
  const grouped = dollars.toLocaleString('en-US', { minimumFractionDigits: 2 });
  const forms = [String(cents), fixed, grouped];
  if (Number.isInteger(dollars)) forms.push(String(dollars), dollars.toLocaleString('en-US'));
  return [...new Set(forms)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
