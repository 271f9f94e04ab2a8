/** Contract §2: money is `{amount: <integer cents>, currency: "USD"}`. */
export interface Money {
  amount: number;
  currency: 'USD';
}

export function money(cents: number): Money {
  return { amount: cents, currency: 'USD' };
}

/** `$1,234.50`, for `detail` messages that name a limit. */
export function formatUsd(cents: number): string {
  const dollars = (cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `$${dollars}`;
}
