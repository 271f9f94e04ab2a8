/**
 * Check files at a time against the bundled reference: it answers from this
 * process's own CPU, so a second file is no faster on two cores and costs
 * ~45 MB more (measured: 8.1/8.4 s, 352-360 MB at 1; 7.5/8.9 s, 398-405 MB at 2).
 */
export const EMBEDDED_CONCURRENCY = 1;
/**
 * Against a server elsewhere the checks mostly wait on the network, which
 * costs no CPU: several files at a time hide the round trips. Measured on the
 * reference through bench/latency-proxy.ts at 50 ms RTT, full run: 90.6 s at
 * 2, 39.9 s at 6, 31.6 s at 8 (MODEL-01 alone, one account's clock and
 * ~570 sequential round trips, takes 28 s); on loopback 5.7 s at 2.
 */
export const REMOTE_CONCURRENCY = 8;

/**
 * How many check files run side by side. Each file has its own control
 * account (its own keys, rate-limit windows and clock: target contract,
 * section 3), so files are independent and the number is set by what the
 * target can take, never by this machine's cores. In partner mode every file
 * shares the one key's rate limits: one at a time (run-suites.ts).
 */
export function checkFilesAtATime(target: {
  embedded: boolean;
  control: boolean;
  /** `--concurrency`, when given. */
  requested?: number;
}): number {
  if (!target.control) return 1;
  return target.requested ?? (target.embedded ? EMBEDDED_CONCURRENCY : REMOTE_CONCURRENCY);
}
