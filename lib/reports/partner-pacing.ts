import { DOCUMENTED_LIMITS, rateFloorMs, type Tally } from '../client/rate-limits.js';
import type { PartnerPacing } from './report-model.js';

export function partnerPacing(tally: Tally, durationMs: number): PartnerPacing {
  const floor = rateFloorMs(tally);
  return {
    reads: tally.read,
    writes: tally.write,
    token_requests: tally.token,
    limits: {
      reads: DOCUMENTED_LIMITS.read,
      writes: DOCUMENTED_LIMITS.write,
      token_requests: DOCUMENTED_LIMITS.token,
    },
    floor_ms: Math.round(floor),
    least_ms: leastMs(tally),
    ...(floor > 0 ? { ratio: Math.round((durationMs / floor) * 100) / 100 } : {}),
  };
}

/** The least time any run could take: (ceil(n / L) - 2) minutes for the tightest class, never below 0. */
function leastMs(tally: Tally): number {
  const minutes = (Object.keys(DOCUMENTED_LIMITS) as (keyof Tally)[]).map((k) =>
    Math.max(0, Math.ceil(tally[k] / DOCUMENTED_LIMITS[k]) - 2),
  );
  return Math.max(0, ...minutes) * 60_000;
}

/** One line for the terminal and summary.md; it says why a run may come in under the floor. */
export function pacingLine(p: PartnerPacing, durationMs: number): string {
  const ratio = p.ratio === undefined ? '' : `: ${p.ratio.toFixed(2)}x the floor`;
  const least =
    p.least_ms === undefined
      ? ''
      : `; each limit's first minute is free at the start and a minute window may reset mid-run, so no run can take less than ${(p.least_ms / 1000).toFixed(1)} s`;
  return `partner key sent ${p.reads} reads, ${p.writes} writes, ${p.token_requests} token requests; rate-limit floor ${(p.floor_ms / 1000).toFixed(1)} s at the documented rates (limits ${p.limits.reads}/${p.limits.writes}/${p.limits.token_requests} a minute${least}), run ${(durationMs / 1000).toFixed(1)} s${ratio}`;
}
