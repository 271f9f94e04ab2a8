import type { Coverage, Outcome, RuleResult, RunError } from './report-model.js';

export function coverageOf(results: readonly RuleResult[]): Coverage {
  const verified = (r: RuleResult) => r.verdict === 'passed' || r.verdict === 'failed';
  const must = results.filter((r) => r.level === 'MUST');
  const should = results.filter((r) => r.level === 'SHOULD');
  return {
    must_total: must.length,
    must_verified: must.filter(verified).length,
    should_total: should.length,
    should_verified: should.filter(verified).length,
  };
}

export function outcomeOf(
  results: readonly RuleResult[],
  runErrors: readonly RunError[] = [],
): Outcome {
  if (results.some((r) => r.level === 'MUST' && r.verdict === 'failed')) return 'does_not_conform';
  if (runErrors.length > 0 || results.some((r) => r.verdict === 'error')) return 'undecided';
  const { must_total, must_verified } = coverageOf(results);
  return must_verified === must_total ? 'conforms' : 'partial';
}

/** "verified 104 of 132 MUST rules": the figure every report format states beside the outcome. */
export function coverageFigure(coverage: Coverage): string {
  return `verified ${coverage.must_verified} of ${coverage.must_total} MUST rules`;
}

/** The outcome in words. Only `conforms` ever says "Conforms". */
export function outcomeTitle(outcome: Outcome): string {
  switch (outcome) {
    case 'conforms':
      return 'Conforms';
    case 'partial':
      return 'Partial: no failure, but not every MUST rule was verified';
    case 'does_not_conform':
      return 'Does not conform';
    case 'undecided':
      return 'Undecided: a check ended in error';
  }
}

/** One line for every report format: "Partial: …, verified 4 of 132 MUST rules". */
export function outcomeLine(summary: { outcome: Outcome; coverage: Coverage }): string {
  return `${outcomeTitle(summary.outcome)} (${coverageFigure(summary.coverage)})`;
}
