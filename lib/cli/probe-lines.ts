import type { DialectProbe } from '../probe/dialect-probe.js';

/** The last line of a run the dialect probe stopped: what it means and what to do. */
export function probeStopLine(probe: DialectProbe, profile: string): string {
  const n = probe.mismatches.length;
  return `the target does not answer in the dialect of the profile (${profile}): ${n} ${
    n === 1 ? 'mismatch' : 'mismatches'
  } above, found by the dialect probe in ${probe.requests} requests before any check. Nothing was checked and nothing is blamed on the target: describe the target in a profile (--profile FILE, docs/profiles.md; --draft-profile FILE writes a first one from the target)`;
}
