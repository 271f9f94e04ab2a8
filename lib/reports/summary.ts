import { VERDICTS } from '../check/verdict.js';
import type { RuleResult, Summary } from './report-model.js';

/** Counts per verdict; every verdict is present, zero or not, so consumers never meet a missing key. */
export function summarize(results: readonly RuleResult[]): Summary {
  const summary = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Summary;
  for (const result of results) summary[result.verdict] += 1;
  return summary;
}
