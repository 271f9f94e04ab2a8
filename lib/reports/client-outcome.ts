import type { Level } from '../../rules/index.js';
import type { Verdict } from '../check/verdict.js';
import type { ExitDecision } from '../runner/exit-code.js';
import type { ClientOutcome, Outcome, RuleResult, RunError } from './report-model.js';

/**
 * The words of a client grading, and how they map onto the suite's verdicts,
 * outcome and exit code, all in one place. A client rule is `honoured`,
 * `broken` (with the exchanges that show it) or `not_exercised` (the client
 * never gave the chance, with the call that would have); `error` is the
 * grading's own failure, never the client's. Every report format reads a
 * client result through its verdict, and shows these words beside it.
 */
export const CLIENT_OUTCOMES: readonly ClientOutcome[] = [
  'honoured',
  'broken',
  'not_exercised',
  'error',
];
export type { ClientOutcome };

/** honoured is passed; broken fails a MUST rule (a SHOULD one warns); not_exercised is not verifiable. */
export function verdictOfClient(outcome: ClientOutcome, level: Level): Verdict {
  switch (outcome) {
    case 'honoured':
      return 'passed';
    case 'broken':
      return level === 'MUST' ? 'failed' : 'warning';
    case 'not_exercised':
      return 'not_verifiable';
    case 'error':
      return 'error';
  }
}

/** The word a report shows for a result: the client's for a client rule, the verdict otherwise. */
export function wordOf(result: Pick<RuleResult, 'verdict' | 'client'>): string {
  return result.client?.outcome ?? result.verdict;
}

/**
 * The client command's exit code: 1 when a MUST client rule was broken; 2
 * when the grading could not be carried out in full (interrupted, a judge or
 * the sandbox failed); 0 otherwise, whatever the client's own command
 * answered (report.json keeps that).
 */
export function clientExitDecision(
  results: readonly RuleResult[],
  runErrors: readonly RunError[],
  interrupted: boolean,
): ExitDecision {
  const broken = results.filter((r) => r.level === 'MUST' && r.client?.outcome === 'broken');
  if (broken.length > 0) {
    return {
      code: 1,
      reason: `${broken.length} MUST client ${broken.length === 1 ? 'rule' : 'rules'} broken: ${broken.map((r) => r.rule_id).join(', ')}`,
    };
  }
  const errors = results.filter((r) => r.client?.outcome === 'error').length;
  if (interrupted || errors > 0 || runErrors.length > 0) {
    const why = [
      interrupted ? 'interrupted' : '',
      errors ? `${errors} ${errors === 1 ? 'rule' : 'rules'} could not be judged` : '',
      runErrors.length
        ? `${runErrors.length} sandbox ${runErrors.length === 1 ? 'error' : 'errors'}`
        : '',
    ].filter(Boolean);
    return { code: 2, reason: `the grading could not be carried out in full (${why.join(', ')})` };
  }
  const count = (outcome: ClientOutcome) =>
    results.filter((r) => r.client?.outcome === outcome).length;
  return {
    code: 0,
    reason: `no MUST client rule broken: ${count('honoured')} honoured, ${count('not_exercised')} not exercised`,
  };
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
