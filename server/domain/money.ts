/** Contract §2: money is `{amount: <integer cents>, currency: "USD"}`. */
export interface Money {
  amount: number;
  currency: 'USD';
}

export function money(cents: number): Money {
  return { amount: cents, currency: 'USD' };
}

/**
 * `$1,234.50`, for `detail` messages that name a limit. Written by hand, not with
 * `toLocaleString('en-US')`: Intl's number formatting maps ICU's locale data into the process,
 * ~8 MB of a conformance run's peak memory, for the one format the reference writes.
 */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.round(Math.abs(cents));
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `$${sign}${dollars}.${String(whole % 100).padStart(2, '0')}`;
}
