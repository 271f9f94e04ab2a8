import { activeStatements } from '../../rules/statements/index.js';
import { coverageFigure } from '../verdict/decide.js';
import type { Outcome } from '../verdict/words.js';
import type { Coverage } from './report-model.js';

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
