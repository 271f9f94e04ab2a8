import { coverageFigure, coverageOf } from '../reports/outcome.js';
import type { RuleResult, RunError } from '../reports/report-model.js';

export interface ExitDecision {
  code: 0 | 1 | 2 | 3;
  reason: string;
}

export interface ExitOptions {
  /**
   * `--certify` / `CONFORMANCE_CERTIFY`: a run that left a MUST rule
   * unverified (outcome `partial`) cannot certify, and exits 3 (an addition
   * to the contract's exit table, docs/contract-additions.md).
   */
  certify?: boolean;
}

/**
 * The exit code of section 4 of the target contract. A MUST failure is the
 * target's and decides first (1). A harness error is never the target's
 * failure, but a run with one did not decide every rule, so it cannot say 0:
 * it is a run that could not be carried out in full (2).
 */
export function exitDecision(
  results: readonly RuleResult[],
  runErrors: readonly RunError[],
  options: ExitOptions = {},
): ExitDecision {
  const mustFailures = results.filter((r) => r.level === 'MUST' && r.verdict === 'failed').length;
  if (mustFailures > 0) {
    return {
      code: 1,
      reason: `${mustFailures} MUST ${mustFailures === 1 ? 'check' : 'checks'} failed: the target does not conform`,
    };
  }
  const errors = results.filter((r) => r.verdict === 'error').length;
  if (errors > 0 || runErrors.length > 0) {
    const parts = [
      errors ? `${errors} ${errors === 1 ? 'check' : 'checks'} ended in error` : '',
      runErrors.length
        ? `${runErrors.length} run ${runErrors.length === 1 ? 'error' : 'errors'}`
        : '',
    ].filter(Boolean);
    return {
      code: 2,
      reason: `${parts.join(' and ')} (the suite or the network, not the target): the run could not decide`,
    };
  }
  const coverage = coverageOf(results);
  if (coverage.must_verified < coverage.must_total) {
    const partial = `no MUST check failed and none ended in error, but the run is partial: ${coverageFigure(coverage)}`;
    return options.certify
      ? { code: 3, reason: `${partial}; --certify needs every MUST rule verified` }
      : { code: 0, reason: partial };
  }
  return {
    code: 0,
    reason: `no MUST check failed and none ended in error; ${coverageFigure(coverage)}`,
  };
}
