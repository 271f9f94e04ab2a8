import { describe, expect, it } from 'vitest';
import { casesLine } from '../../lib/reports/build-report.js';
import { pacingLine, partnerPacing } from '../../lib/reports/partner-pacing.js';

describe('numbers that are true', () => {
  it('states the cases per property as run, not the --num-runs asked for', () => {
    expect(casesLine({ num_runs: 100 })).toBe('100 cases per property');
    expect(casesLine({ num_runs: 100, cases_per_property: { min: 100, max: 100 } })).toBe(
      '100 cases per property',
    );
    expect(casesLine({ num_runs: 100, cases_per_property: { min: 10, max: 10 } })).toBe(
      '10 cases per property as run (--num-runs 100)',
    );
    expect(casesLine({ num_runs: 100, cases_per_property: { min: 3, max: 10 } })).toBe(
      '3 to 10 cases per property as run (--num-runs 100; per rule in report.json)',
    );
  });

  it('gives the partner pacing a floor no run can beat, beside the one at the documented rates', () => {
    // 231 writes at 60 a minute: 231 s at the rate; a run may burst the first minute and
    // straddle a window reset, so no run can take less than (ceil(231 / 60) - 2) minutes.
    const pacing = partnerPacing({ read: 261, write: 231, token: 60 }, 193_600);
    expect(pacing.floor_ms).toBe(231_000);
    expect(pacing.least_ms).toBe(120_000);
    const line = pacingLine(pacing, 193_600);
    expect(line).toContain('rate-limit floor 231.0 s at the documented rates');
    expect(line).toContain('no run can take less than 120.0 s');
    expect(pacing.least_ms).toBeLessThanOrEqual(193_600);
  });
});
