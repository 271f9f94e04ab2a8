import { AsyncLocalStorage } from 'node:async_hooks';
import type { Faker } from '@faker-js/faker';
import type { Rule } from '../../rules/index.js';
import type { Exchange } from '../evidence/exchange.js';
import { EvidenceRecorder } from '../evidence/recorder.js';
import type { Redactor } from '../evidence/redactor.js';
import { CheckStopped, HarnessError, NotVerifiable } from '../violations/harness-error.js';
import type { Violation } from '../violations/violation.js';
import type { Key } from './context.js';
import type { CheckOutcome, Counterexample } from './verdict.js';

/** What `recordApart` ran: its value or error, and the exchanges and notes it recorded. */
export type RecordedApart<T> = ({ value: T } | { error: unknown }) & {
  evidence: Exchange[];
  notes: string[];
};

/**
 * What one run of a property collects when several runs are in flight at
 * once (`CheckRun.isolated`), and the faker it draws from.
 */
export interface RunScope {
  violations: Violation[];
  evidence: Exchange[];
  faker: Faker;
}

/**
 * The state of one check while it runs: its violations, evidence, notes and
 * the keys to revoke afterwards. `finish` turns it into the verdict.
 */
export class CheckRun {
  readonly rule: Rule;
  readonly recorder: EvidenceRecorder;
  readonly #redactor: Redactor;
  violations: Violation[] = [];
  /**
   * How many judgements the check made (each `expect*`, `require*`, a
   * violation, a property's answer), holding or not. A check that ends
   * normally having judged nothing has verified nothing: `not_verifiable`,
   * never `passed` (issue 12).
   */
  judgements = 0;
  readonly notes: string[] = [];
  /** Keys this check made: revoked when it ends. */
  readonly keys: Key[] = [];
  /** Ids of the accounts this check made (`newAccount`): no other check uses them. */
  readonly accounts = new Set<string>();
  counterexample?: Counterexample;
  /** Generated inputs per property as run (the largest of the check's properties). */
  cases?: number;
  readonly #scope = new AsyncLocalStorage<RunScope>();

  constructor(rule: Rule, redactor: Redactor) {
    this.rule = rule;
    this.#redactor = redactor;
    this.recorder = new EvidenceRecorder(redactor);
  }

  /** Counts one judgement of the target (the assertion held or not). */
  judged(count = 1): void {
    this.judgements += count;
  }

  violate(violation: Violation): void {
    this.judgements += 1;
    if (violation.exchange !== undefined) this.recorder.pin(violation.exchange);
    (this.#scope.getStore()?.violations ?? this.violations).push(violation);
  }

  /**
   * Runs `fn` with its violations and exchanges (also across its awaits)
   * going to `scope`, and `scope.faker` as the check's faker: one of a
   * property's runs in flight beside others (property-lanes.ts).
   */
  isolated<T>(scope: RunScope, fn: () => Promise<T>): Promise<T> {
    return this.#scope.run(scope, () => this.recorder.into(scope.evidence, fn));
  }

  /** The faker of the run in flight here (`isolated`), if any. */
  scopedFaker(): Faker | undefined {
    return this.#scope.getStore()?.faker;
  }

  /** Swaps in fresh violation and evidence buffers (one run of a property); answers the old ones. */
  openScope(): { violations: Violation[]; evidence: Exchange[] } {
    const previous = { violations: this.violations, evidence: this.recorder.swap() };
    this.violations = [];
    return previous;
  }

  /** Restores `saved` and answers what the scope collected. */
  closeScope(saved: { violations: Violation[]; evidence: Exchange[] }): {
    violations: Violation[];
    evidence: Exchange[];
  } {
    const scoped = { violations: this.violations, evidence: this.recorder.swap(saved.evidence) };
    this.violations = saved.violations;
    return scoped;
  }

  /**
   * Runs `fn` with its exchanges and notes recorded apart from this check's
   * (the check's own evidence and notes are left as they were).
   */
  async recordApart<T>(fn: () => Promise<T>): Promise<RecordedApart<T>> {
    const saved = this.recorder.swap();
    const notesBefore = this.notes.length;
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await fn() };
    } catch (error) {
      outcome = { error };
    }
    const evidence = this.recorder.swap(saved);
    const notes = this.notes.splice(notesBefore);
    return { ...outcome, evidence, notes };
  }

  /** The outcome, from how the body ended: normally (`ended` undefined) or by throwing. */
  finish(ended?: unknown): CheckOutcome {
    const { evidence, omitted } = this.recorder.take();
    if (omitted > 0) this.notes.push(`${omitted} further exchanges omitted from the evidence`);
    const base = {
      ruleId: this.rule.id,
      violations: this.violations,
      evidence,
      notes: this.notes.map((note) => this.#redactor.redact(note)),
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
        reason: `${error.code}: ${message}`,
        harnessError: { code: error.code, message },
      };
    }
    const first = this.violations[0];
    if (!first && this.judgements === 0) {
      const last = this.notes.at(-1);
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
    const more = this.violations.length > 1 ? ` (+${this.violations.length - 1} more)` : '';
    const reason = this.#redactor.redact(`${first.message}${more}`);
    return {
      ...base,
      violations: this.violations.map((v) => redactViolation(v, this.#redactor)),
      verdict: this.rule.level === 'MUST' ? 'failed' : 'warning',
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
