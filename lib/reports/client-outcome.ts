import type { Outcome, RuleResult } from './report-model.js';

/** The word a report shows for a result: the client's for a client rule, the verdict otherwise. */
export function wordOf(result: Pick<RuleResult, 'verdict' | 'client'>): string {
  return result.client?.outcome ?? result.verdict;
}

/** The run's outcome in a client report's words. Only a grading with every rule honoured says "Honours". */
export function clientOutcomeTitle(outcome: Outcome): string {
  switch (outcome) {
    case 'conforms':
      return 'Honours every client rule';
    case 'partial':
      return 'No client rule broken, but not every one was exercised';
    case 'does_not_conform':
      return 'Breaks client rules';
    case 'undecided':
      return 'Undecided: the grading could not be carried out in full';
  }
}

/** "14 of 23 MUST client rules exercised": the figure beside the outcome. */
export function exercisedFigure(results: readonly RuleResult[]): string {
  const must = results.filter((r) => r.level === 'MUST');
  const exercised = must.filter(
    (r) => r.client?.outcome === 'honoured' || r.client?.outcome === 'broken',
  );
  return `${exercised.length} of ${must.length} MUST client rules exercised`;
}
