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
    ...(floor > 0 ? { ratio: Math.round((durationMs / floor) * 100) / 100 } : {}),
  };
}

/** One line for the terminal and summary.md. */
export function pacingLine(p: PartnerPacing, durationMs: number): string {
  const ratio = p.ratio === undefined ? '' : `: ${p.ratio.toFixed(2)}x the floor`;
  return `partner key sent ${p.reads} reads, ${p.writes} writes, ${p.token_requests} token requests; rate-limit floor ${(p.floor_ms / 1000).toFixed(1)} s (limits ${p.limits.reads}/${p.limits.writes}/${p.limits.token_requests} a minute), run ${(durationMs / 1000).toFixed(1)} s${ratio}`;
}
