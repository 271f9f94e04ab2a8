import type { Faker } from '@faker-js/faker';
import type { Rule } from '../../rules/index.js';
import type { EvidenceRecorder } from '../evidence/recorder.js';
import { trimmed } from '../evidence/recorder.js';
import type { Redactor } from '../evidence/redactor.js';
import type { Scoped } from '../evidence/scope.js';
import { violatedVerdict } from '../verdict/decide.js';
import { CheckStopped, HarnessError, NotVerifiable } from '../violations/harness-error.js';
import type { Violation } from '../violations/violation.js';
import type { CheckOutcome, Counterexample } from './check-outcome.js';
import type { Key } from './context-api.js';
import { replayOf } from './replay-of.js';

/**
 * The state of one check while it runs: its judgements, the keys to revoke
 * afterwards, its counterexample. Its violations, notes and evidence live in
 * the evidence scope it runs in (`execute`): one mechanism for a check, a
 * property's run and a lane alike.
 */
export class CheckRun {
  readonly rule: Rule;
  /** The session's recorder: it appends to whatever scope the work runs in. */
  readonly recorder: EvidenceRecorder;
  readonly #redactor: Redactor;
  /**
   * How many judgements the check made (each `expect*`, `require*`, a
   * violation, a property's answer), holding or not. A check that ends
   * normally having judged nothing has verified nothing: `not_verifiable`,
   * never `passed`.
   */
  judgements = 0;
  /** Keys this check made: revoked when it ends. */
  readonly keys: Key[] = [];
  /**
   * Clean-ups the check registered (`onCleanup`): run when it ends, all at
   * once (each undoes one thing the check made), before its keys are
   * revoked, since they use those keys.
   */
  readonly cleanups: (() => Promise<void>)[] = [];
  /** Ids of the accounts this check made (`newAccount`): no other check uses them. */
  readonly accounts = new Set<string>();
  counterexample?: Counterexample;
  /** Generated inputs per property as run (the largest of the check's properties). */
  cases?: number;

  constructor(rule: Rule, recorder: EvidenceRecorder, redactor: Redactor) {
    this.rule = rule;
    this.recorder = recorder;
    this.#redactor = redactor;
  }

  /** The violations of the scope in flight here (the check's, or one run of its property). */
  get violations(): Violation[] {
    return this.recorder.current().violations;
  }

  /** The notes of the scope in flight here. */
  get notes(): string[] {
    return this.recorder.current().notes;
  }

  /** Counts one judgement of the target (the assertion held or not). */
  judged(count = 1): void {
    this.judgements += count;
  }

  /** A judgement that held, kept with its condition for a reproduction (never reported). */
  hold(judgement: Violation): void {
    if (judgement.must) this.recorder.current().held.push(judgement);
  }

  violate(violation: Violation): void {
    this.judgements += 1;
    const scope = this.recorder.current();
    if (violation.exchange !== undefined) scope.pinned.add(violation.exchange);
    scope.violations.push(violation);
  }

  /** The faker of the property run in flight here, if any. */
  scopedFaker(): Faker | undefined {
    return this.recorder.current().faker;
  }

  /** Runs the check's body in its own evidence scope and answers its outcome. */
  async execute(body: () => Promise<void>): Promise<CheckOutcome> {
    return this.finish(await this.recorder.scope(body));
  }

  /** The outcome, from how the body's scope ended: normally or by throwing. */
  finish(scoped: Scoped<unknown>): CheckOutcome {
    const ended = 'error' in scoped ? scoped.error : undefined;
    const violations = scoped.violations;
    const notes = scoped.notes;
    const { evidence, omitted } = trimmed(scoped);
    if (omitted > 0) notes.push(`${omitted} further exchanges omitted from the evidence`);
    const base = {
      ruleId: this.rule.id,
      violations,
      evidence,
      notes: notes.map((note) => this.#redactor.redact(note)),
      ...(this.counterexample ? { counterexample: this.counterexample } : {}),
      ...(this.cases !== undefined ? { cases: this.cases } : {}),
    };
    if (ended instanceof NotVerifiable) {
      return {
        ...base,
        verdict: 'not_verifiable',
        reason: this.#redactor.redact(ended.message),
        missing: [...ended.missing],
      };
    }
    if (ended !== undefined && !(ended instanceof CheckStopped)) {
      const error =
        ended instanceof HarnessError
          ? ended
          : new HarnessError('HARNESS_BUG', describeError(ended), { cause: ended });
      const message = this.#redactor.redact(error.message);
      return {
        ...base,
        verdict: 'error',
        ...(scoped.steps.length > 0 ? { replay: replayOf(this.recorder, scoped, violations) } : {}),
        reason: `${error.code}: ${message}`,
        harnessError: { code: error.code, message },
      };
    }
    const first = violations[0];
    if (!first && this.judgements === 0) {
      const last = notes.at(-1);
      return {
        ...base,
        verdict: 'not_verifiable',
        reason: this.#redactor.redact(
          `the check ended without judging anything of the target${last ? ` (last note: ${last})` : ''}`,
        ),
        missing: [],
      };
    }
    if (!first) return { ...base, verdict: 'passed' };
    const more = violations.length > 1 ? ` (+${violations.length - 1} more)` : '';
    const reason = this.#redactor.redact(`${first.message}${more}`);
    return {
      ...base,
      violations: violations.map((v) => redactViolation(v, this.#redactor)),
      replay: replayOf(this.recorder, scoped, violations),
      verdict: violatedVerdict(this.rule.level),
      reason,
    };
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const frame = error.stack?.split('\n').find((line) => line.includes('/suites/'));
    // Stack frames read "at fn (file:line)": keep the first one inside suites/ as the place.
    return `${error.name}: ${error.message}${frame ? ` ${frame.trim()}` : ''}`;
  }
  return String(error);
}

function redactViolation(v: Violation, redactor: Redactor): Violation {
  const scrub = (value: unknown): unknown =>
    typeof value === 'string'
      ? redactor.redact(value)
      : JSON.parse(redactor.redact(JSON.stringify(value ?? null)));
  return {
    ...v,
    message: redactor.redact(v.message),
    expected: scrub(v.expected),
    received: scrub(v.received),
  };
}
