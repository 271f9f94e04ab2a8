import { activeStatements, statementCoverage } from '../../rules/statements/index.js';
import type { Coverage, Outcome, RuleResult, RunError } from './report-model.js';

export function coverageOf(results: readonly RuleResult[]): Coverage {
  const verified = (r: RuleResult) => r.verdict === 'passed' || r.verdict === 'failed';
  const must = results.filter((r) => r.level === 'MUST');
  const should = results.filter((r) => r.level === 'SHOULD');
  // A server statement of the API document or the contract's readings is checked in this run when
  // it has no gap and one of its rules was verified here (docs/statements.md).
  const statements = statementCoverage(new Set(results.filter(verified).map((r) => r.rule_id)));
  return {
    must_total: must.length,
    must_verified: must.filter(verified).length,
    should_total: should.length,
    should_verified: should.filter(verified).length,
    statements_total: statements.server_total,
    statements_checked: statements.server_checked,
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

/**
 * "verified 104 of 132 MUST rules, 180 of 238 server statements checked": the figure every report
 * format states beside the outcome. A run that left statements unchecked says how many and why
 * they count: a partial run (filtered, or without a capability) checks fewer.
 */
export function coverageFigure(coverage: Coverage): string {
  const rules = `verified ${coverage.must_verified} of ${coverage.must_total} MUST rules`;
  // Reports written before the statement index have no statement figure: the rules' alone.
  if (coverage.statements_total === undefined) return rules;
  const partial = coverage.must_verified < coverage.must_total ? ': a partial run' : '';
  return `${rules}, ${coverage.statements_checked ?? 0} of ${coverage.statements_total} server statements checked${partial}`;
}

/** The statements no run checks against a server, and where they are listed with why. */
export function uncheckedKindsNote(): string {
  const count = (kind: string) => activeStatements.filter((s) => s.kind === kind).length;
  return `${count('client')} statements of the documents bind only the client and ${count('unobservable')} no HTTP exchange can observe: never checked against a server (docs/statements.md lists each with why)`;
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
