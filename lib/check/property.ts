import * as fc from 'fast-check';
import type { Redactor } from '../evidence/redactor.js';
import { CheckStopped } from '../violations/harness-error.js';
import type { CheckRun } from './check-run.js';

/**
 * fast-check parameters for one rule: the run's seed mixed with the rule id,
 * so each property draws its own inputs and `--seed` replays all of them.
 */
export function propertyParams<T>(
  seed: number,
  ruleId: string,
  numRuns: number,
  extra: fc.Parameters<T> = {},
): fc.Parameters<T> {
  return { seed: mixSeed(seed, ruleId), numRuns, endOnFailure: false, ...extra };
}

export function mixSeed(seed: number, ruleId: string): number {
  let hash = seed | 0;
  for (const char of ruleId) hash = (Math.imul(hash ^ char.charCodeAt(0), 16777619) + 1) | 0;
  return hash;
}

/**
 * Runs an async property. A run fails when the predicate answers false or
 * records a violation; fast-check then shrinks, and the violations and
 * evidence of the last failing run (the shrunk counterexample) are kept with
 * the seed and path that replay it. A harness error inside any run ends the
 * property and is re-thrown as what it is: never shrunk as if it were a
 * violation.
 */
export async function runProperty<T>(
  run: CheckRun,
  redactor: Redactor,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<boolean | void>,
  params: fc.Parameters<[T]>,
): Promise<void> {
  let harness: unknown;
  let failing: ReturnType<CheckRun['closeScope']> | undefined;
  let sample: ReturnType<CheckRun['closeScope']> | undefined;

  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (harness !== undefined) return true;
    const saved = run.openScope();
    let answer: boolean | void = true;
    try {
      answer = await predicate(value);
    } catch (error) {
      if (!(error instanceof CheckStopped)) harness = error;
    }
    const scoped = run.closeScope(saved);
    // The predicate's own true/false answer is a judgement; a void one relies on its expects.
    if (typeof answer === 'boolean') run.judged();
    if (harness !== undefined) {
      failing ??= scoped;
      return true;
    }
    sample ??= scoped;
    if (answer === false && scoped.violations.length === 0) {
      scoped.violations.push({
        code: 'VALUE',
        pointer: '',
        expected: 'the property holds',
        received: 'it did not',
        message: 'the property did not hold for a generated input',
      });
    }
    if (scoped.violations.length > 0) {
      failing = scoped;
      return false;
    }
    return true;
  });

  const details = await fc.check(property, params);
  // What the run really asked of this property (after any cap), for the reports' cases per property.
  run.cases = Math.max(run.cases ?? 0, params.numRuns ?? details.numRuns);
  if (harness !== undefined) {
    restore(run, failing);
    throw harness;
  }
  if (!details.failed || !failing) {
    restore(run, sample);
    // No fast-check seed here: the run's --seed replays every property (one seed story).
    run.notes.push(`property held for ${details.numRuns} generated inputs`);
    return;
  }
  restore(run, failing);
  for (const violation of failing.violations) run.violate(violation);
  run.counterexample = {
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    value: redactor.redact(fc.stringify(details.counterexample?.[0])),
    numRuns: details.numRuns,
  };
  run.notes.push(
    `counterexample after ${details.numRuns} runs and ${details.numShrinks} shrinks; replay with the run's --seed and --only ${run.rule.id} (see reproduce)`,
  );
}

/** Puts a scope's evidence back into the check's evidence (its violations are added by the caller). */
function restore(run: CheckRun, scope: ReturnType<CheckRun['closeScope']> | undefined): void {
  if (!scope) return;
  const current = run.recorder.swap();
  run.recorder.swap([...current, ...scope.evidence]);
}
