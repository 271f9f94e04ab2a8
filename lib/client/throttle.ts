/**
 * The suite's one policy for a 429 on a request whose rule is not the rate
 * limit (API document section 7: "Wait, then retry"). The wait honours
 * Retry-After; the number of retries and the longest wait are bounded by what
 * a check's time limit holds (lib/check/register.ts): with only a partner key
 * a check may wait a window out, with the control API (one minute per check)
 * it may not. Past that, the check could not judge its rule: it ends
 * `not_verifiable` with a reason starting THROTTLED, never `failed` or `error`.
 */
export const THROTTLED = 'throttled';

export const MAX_RETRIES = 2;
const LONGEST_WAIT_S = { paced: 65, control: 15 } as const;

/** Seconds to wait before retry number `attempt + 1`, or undefined: give up. */
export function retryWait(
  retryAfter: string | undefined,
  attempt: number,
  mode: keyof typeof LONGEST_WAIT_S,
): number | undefined {
  if (attempt >= MAX_RETRIES) return undefined;
  const asked = Number(retryAfter);
  const seconds = Number.isFinite(asked) && asked >= 1 ? Math.ceil(asked) : 1;
  return seconds > LONGEST_WAIT_S[mode] ? undefined : seconds;
}

export function throttledReason(
  what: string,
  retryAfter: string | undefined,
  exchange: number,
  tries: number,
): string {
  return `${THROTTLED}: the target kept answering 429 to ${what} (Retry-After ${retryAfter ?? 'absent'}, evidence #${exchange}) after ${tries} ${tries === 1 ? 'try' : 'tries'}; the rule could not be judged`;
}
