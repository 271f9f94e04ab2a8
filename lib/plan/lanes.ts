/**
 * Lanes: how the bundled check files are shared out among the workers of a run of several
 * files at a time (a target elsewhere). Each worker runs one lane, its files side by side, so
 * a worker waiting on one file's round trips goes on with another's: with a folder per
 * vitest file, a worker that ran one long check (three rounds of a rate limit, a model's
 * hundred steps) did nothing else while it waited (docs/performance.md).
 */

/** A check file to place: its path below `suites/`, what it weighs, and whether it bursts. */
export interface LaneFile {
  /** Below `suites/`, `/`-separated: `race/rate-limits.check.js`. */
  file: string;
  /**
   * Seconds its checks took alone through 50 ms of round-trip time (suites/lane-weights.json):
   * its longest row of round trips, which no other file in its lane shortens.
   */
  seconds: number;
  /**
   * Requests it sent: what its worker spends on it (each answer read, judged and recorded), and
   * its share of the worker's sockets, whichever other files run beside it.
   */
  requests: number;
  /**
   * Its checks spend a rate limit's budget at once, as many requests in flight as the
   * worker has sockets: two such files in one lane share them, so they are spread.
   */
  burst: boolean;
}

/**
 * Shares `files` out among `lanes` lanes so that each lane holds about its share of both the
 * seconds and the requests: measured against a lane's share of each (the total over the
 * lanes), the largest file first, each to the lane it fills least (the larger of its two
 * fills after it), a bursting file only to a lane holding fewer bursting files than its share
 * (the bursting files over the lanes, rounded up). Deterministic: ties go by name, then to the
 * lowest lane. Every file is in exactly one lane; a lane may be empty when there are more
 * lanes than files.
 */
export function planLanes(files: readonly LaneFile[], lanes: number): string[][] {
  const count = Math.max(1, Math.floor(lanes));
  // A negative weight counts as none.
  const placed = files.map((file) => ({
    ...file,
    seconds: Math.max(0, file.seconds),
    requests: Math.max(0, file.requests),
  }));
  const share = (total: number) => (total > 0 ? total / count : 1);
  const seconds = share(placed.reduce((sum, file) => sum + file.seconds, 0));
  const requests = share(placed.reduce((sum, file) => sum + file.requests, 0));
  const burstShare = Math.ceil(placed.filter((file) => file.burst).length / count);
  const fill = (s: number, r: number) => Math.max(s / seconds, r / requests);
  const plan = Array.from({ length: count }, () => ({
    seconds: 0,
    requests: 0,
    bursts: 0,
    files: [] as string[],
  }));
  const size = (file: LaneFile) => fill(file.seconds, file.requests);
  const largestFirst = placed.sort(
    (a, b) => size(b) - size(a) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
  for (const file of largestFirst) {
    let best: { lane: (typeof plan)[number]; after: number } | undefined;
    for (const lane of plan) {
      if (file.burst && lane.bursts >= burstShare) continue;
      const after = fill(lane.seconds + file.seconds, lane.requests + file.requests);
      if (!best || after < best.after) best = { lane, after };
    }
    // The share is rounded up, so some lane always has room for a bursting file.
    const lane = best?.lane ?? (plan[0] as (typeof plan)[number]);
    lane.seconds += file.seconds;
    lane.requests += file.requests;
    if (file.burst) lane.bursts += 1;
    lane.files.push(file.file);
  }
  return plan.map((lane) => lane.files);
}
