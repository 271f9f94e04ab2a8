import type { Level } from '../../rules/index.js';
import type { ClientOutcome, RuleResult, RunError } from '../reports/report-model.js';
import { violatedVerdict } from './decide.js';
import { EXIT, type ExitDecision, type Verdict } from './words.js';

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
      return violatedVerdict(level);
    case 'not_exercised':
      return 'not_verifiable';
    case 'error':
      return 'error';
  }
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
      code: EXIT.failed,
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
    return {
      code: EXIT.notCarriedOut,
      reason: `the grading could not be carried out in full (${why.join(', ')})`,
    };
  }
  const count = (outcome: ClientOutcome) =>
    results.filter((r) => r.client?.outcome === outcome).length;
  return {
    code: EXIT.ok,
    reason: `no MUST client rule broken: ${count('honoured')} honoured, ${count('not_exercised')} not exercised`,
  };
}
