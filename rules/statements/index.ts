import { statements as api01 } from './api-0-1.js';
import { statements as api2 } from './api-2.js';
import { statements as api3 } from './api-3.js';
import { statements as api4 } from './api-4.js';
import { statements as api5 } from './api-5.js';
import { statements as api6 } from './api-6.js';
import { statements as api7 } from './api-7.js';
import { statements as api89 } from './api-8-9.js';
import { statements as contract } from './contract.js';
import { placeOf, type Statement, type StatementInput, StatementSchema } from './schema.js';

export type { Statement } from './schema.js';

/** Thrown at load when the index's data is malformed: a programming error, caught by `npm test`. */
export class StatementIndexError extends Error {
  override name = 'StatementIndexError';
}

/** Validates the raw index: every entry well-formed, ids unique. */
export function loadStatements(inputs: readonly StatementInput[]): readonly Statement[] {
  const seen = new Set<string>();
  return inputs.map((input, index) => {
    const parsed = StatementSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') ?? '';
      throw new StatementIndexError(
        `statement #${index} (${String((input as { id?: unknown }).id)}): ${where} ${issue?.message}`,
      );
    }
    if (seen.has(parsed.data.id)) {
      throw new StatementIndexError(`duplicate statement id ${parsed.data.id}`);
    }
    seen.add(parsed.data.id);
    return Object.freeze({ ...parsed.data, ...placeOf(parsed.data.id) });
  });
}

/**
 * Every statement of the API document and of the target contract's readings, in document
 * order, retired ones included (their ids stay taken).
 */
export const statementIndex: readonly Statement[] = loadStatements([
  ...api01,
  ...api2,
  ...api3,
  ...api4,
  ...api5,
  ...api6,
  ...api7,
  ...api89,
  ...contract,
]);

/** The statements in force. */
export const activeStatements: readonly Statement[] = statementIndex.filter((s) => !s.retired);

/** Statements that fix an observable behaviour of a server: what "N of N checked" counts. */
export const serverStatements: readonly Statement[] = activeStatements.filter(
  (s) => s.kind === 'server',
);

/** A server statement is fully mapped when it names a rule and records no gap. */
export function isMapped(statement: Statement): boolean {
  return statement.kind === 'server' && statement.rules.length > 0 && statement.gap === undefined;
}

/** How many server statements a run checked: mapped ones at least one of whose rules it verified. */
export interface StatementCoverage {
  server_total: number;
  server_checked: number;
}

/**
 * A statement is checked in a run when it is fully mapped and at least one of its rules was
 * verified (passed or failed) in that run. `verified` holds the rule ids the run verified.
 */
export function statementCoverage(verified: ReadonlySet<string>): StatementCoverage {
  return {
    server_total: serverStatements.length,
    server_checked: serverStatements.filter(
      (s) => isMapped(s) && s.rules.some((id) => verified.has(id)),
    ).length,
  };
}
