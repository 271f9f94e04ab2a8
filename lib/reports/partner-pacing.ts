import { DOCUMENTED_LIMITS, rateFloorMs, type Tally } from '../client/key-pacer.js';

/**
 * Addition to report.json in partner mode: what the one partner key sent
 * and the least time its documented limits (API document section 8) allow
 * for that traffic, beside how long the checks took. A ratio near 1 says
 * the run was as fast as the key allows; the rest was waiting.
 */
export interface PartnerPacing {
  reads: number;
  writes: number;
  token_requests: number;
  /** Per key and minute, as the API document states them. */
  limits: { reads: number; writes: number; token_requests: number };
  /** max(reads / 300, writes / 60, token requests / 20) minutes, in ms. */
  floor_ms: number;
  /** The checks' wall time (report `duration_ms`) over the floor; absent when the floor is 0. */
  ratio?: number;
}

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
    ...(floor > 0 ? { ratio: Math.round((durationMs / floor) * 100) / 100 } : {}),
  };
}

/** One line for the terminal and summary.md. */
export function pacingLine(p: PartnerPacing, durationMs: number): string {
  const ratio = p.ratio === undefined ? '' : `: ${p.ratio.toFixed(2)}x the floor`;
  return `partner key sent ${p.reads} reads, ${p.writes} writes, ${p.token_requests} token requests; rate-limit floor ${(p.floor_ms / 1000).toFixed(1)} s (limits ${p.limits.reads}/${p.limits.writes}/${p.limits.token_requests} a minute), run ${(durationMs / 1000).toFixed(1)} s${ratio}`;
}
