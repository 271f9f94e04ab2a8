/** Check files at a time against the bundled reference: it answers from this process's own CPU. */
export const EMBEDDED_CONCURRENCY = 2;
/**
 * Against a server elsewhere the checks mostly wait on the network, which
 * costs no CPU: a handful of files at a time hides the round trips (issue 16:
 * at 50 ms RTT one file at a time took 7x the loopback run).
 */
export const REMOTE_CONCURRENCY = 6;

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
