import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountForms } from '../../suites/support/names-limit.js';

// The forms a limit's amount may take in a refusal's detail, written by hand without Intl
// (suites/support/names-limit.ts): the ones `toLocaleString('en-US')` writes among them.
describe('amountForms', () => {
  it('holds the amount as en-US writes it, with and without cents', () => {
    expect(amountForms(123_456_700)).toEqual([
      '123456700',
      '1234567.00',
      '1,234,567.00',
      '1234567',
      '1,234,567',
    ]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e14 }), (cents) => {
        const dollars = cents / 100;
        const forms = amountForms(cents);
        expect(forms).toContain(dollars.toLocaleString('en-US', { minimumFractionDigits: 2 }));
        if (Number.isInteger(dollars)) expect(forms).toContain(dollars.toLocaleString('en-US'));
      }),
    );
  });
});
