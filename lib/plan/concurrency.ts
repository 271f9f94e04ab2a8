/**
 * Check files at a time against the bundled reference: it answers from this
 * process's own CPU, so a second file is no faster on two cores and costs
 * ~45 MB more (measured: 8.1/8.4 s, 352-360 MB at 1; 7.5/8.9 s, 398-405 MB at 2).
 */
export const EMBEDDED_CONCURRENCY = 1;
/**
 * How far the checks of that one file go side by side against the bundled
 * reference (RunConfig.concurrency): its checks on accounts of their own at
 * once, a generated property's runs this many in flight (three times this for
 * long runs). One after another, nearly every request of a run waited for the
 * answer to the one before it: the checks' worker and the reference took
 * turns, each thread idle half the time. Side by side they overlap, in the
 * same worker (a second worker is a V8 heap of its own). Measured, full runs
 * alternating at load 1.3-2.1: 8.1-8.9 s against 9.4-10.9 s one after another.
 */
export const EMBEDDED_SIDE_BY_SIDE = 4;
/**
 * Against a server elsewhere the checks mostly wait on the network, which
 * costs no CPU: several files at a time hide the round trips. Measured on the
 * reference through bench/latency-proxy.ts at 50 ms RTT, full run: 90.6 s at
 * 2, 39.9 s at 6, 31.6 s at 8 (MODEL-01 alone, one account's clock and
 * ~570 sequential round trips, takes 28 s); on loopback 5.7 s at 2.
 */
export const REMOTE_CONCURRENCY = 8;

/** What sets a run's concurrency: the kind of target, and what was asked for. */
export interface RunTarget {
  /** The bundled reference, answering from this process's CPU. */
  embedded: boolean;
  /** A control API: without one, every file shares the partner key's limits. */
  control: boolean;
  /** `--concurrency`, when given. */
  requested?: number;
}

/**
 * How many check files run side by side. Each file has its own control
 * account (its own keys, rate-limit windows and clock: target contract,
 * section 3), so files are independent and the number is set by what the
 * target can take, never by this machine's cores. In partner mode every file
 * shares the one key's rate limits: one at a time (run-suites.ts).
 */
export function checkFilesAtATime(target: RunTarget): number {
  if (!target.control) return 1;
  return target.requested ?? (target.embedded ? EMBEDDED_CONCURRENCY : REMOTE_CONCURRENCY);
}

/**
 * How far a run's checks go side by side (RunConfig.concurrency): as far as
 * its files at a time, or `--concurrency`; against the bundled reference, by
 * default, further than its one file at a time (EMBEDDED_SIDE_BY_SIDE).
 */
export function checksSideBySide(target: RunTarget): number {
  const files = checkFilesAtATime(target);
  if (!target.control || target.requested !== undefined || !target.embedded) return files;
  return Math.max(files, EMBEDDED_SIDE_BY_SIDE);
}

/**
 * Sockets at once per worker: a rate-limit check's hundreds of requests queue instead of
 * opening hundreds. At most 32; above 8 files at a time, the workers share 256 between them
 * (each at least 8), so that the run stays far below a server's cap of connections from one
 * address. Through 50 ms of round-trip time a burst keeps its sockets open for longer, and 16
 * files at a time with 32 sockets each went past the bundled reference's 512 from one address:
 * it closed the new ones on arrival, and the run stopped with "the target stopped answering".
 * Fewer files at a time (a fragile target) never means more sockets a worker.
 */
export function workerConnections(filesAtATime: number): number {
  return Math.max(8, Math.min(32, Math.floor(RUN_CONNECTIONS / Math.max(1, filesAtATime))));
}
const RUN_CONNECTIONS = 256;
