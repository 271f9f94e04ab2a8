import { VERDICTS } from '../check/verdict.js';
import { coverageOf, outcomeOf } from './outcome.js';
import type { RuleResult, RunError, Summary } from './report-model.js';

/**
 * Counts per verdict (every verdict is present, zero or not, so consumers
 * never meet a missing key), the coverage and the outcome.
 */
export function summarize(
  results: readonly RuleResult[],
  runErrors: readonly RunError[] = [],
): Summary {
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<
    (typeof VERDICTS)[number],
    number
  >;
  for (const result of results) counts[result.verdict] += 1;
  return { ...counts, coverage: coverageOf(results), outcome: outcomeOf(results, runErrors) };
}
