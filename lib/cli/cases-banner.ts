import type { RunConfig } from '../target/run-config.js';

/**
 * The banner's "cases per property", as the run will really run them: with
 * only a partner key, properties share that key's rate limits and the suites
 * cap them (suites/support/property-runs.ts: at most 10, some 3 or 5).
 */
const PARTNER_KEY_CASES_CAP = 10;

export function casesPerProperty(config: RunConfig): string {
  if (config.controlUrl) return `${config.numRuns} cases per property`;
  const capped = Math.min(config.numRuns, PARTNER_KEY_CASES_CAP);
  return capped === config.numRuns
    ? `${config.numRuns} cases per property`
    : `${capped} or fewer cases per property (not ${config.numRuns}: without a control API they share the partner key's rate limits)`;
}
