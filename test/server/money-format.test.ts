import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../server/domain/money.js';

// formatUsd writes amounts by hand, without Intl (server/domain/money.ts): it must write them as
// `toLocaleString('en-US')` does, for every amount of whole cents.
describe('formatUsd', () => {
  it('writes dollars as en-US does: thousands commas, two decimals', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(123_456_789)).toBe('$1,234,567.89');
    fc.assert(
      fc.property(fc.integer({ min: -1e14, max: 1e14 }), (cents) => {
        const intl = (cents / 100).toLocaleString('en-US', {
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        });
        expect(formatUsd(cents)).toBe(`$${intl}`);
      }),
    );
  });
});
