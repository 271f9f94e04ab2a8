import type { Reporter, TestCase } from 'vitest/node';

/** Harness errors that mean the target itself is not answering, not one check's trouble. */
const UNREACHABLE = new Set(['HARNESS_NETWORK', 'HARNESS_TIMEOUT']);

/** Checks in a row that could not reach the target before the run stops. */
const DEFAULT_UNREACHABLE_STREAK = 5;

/**
 * Stops a run whose target went away half-way. The start-up probe catches a
 * target that never answers; this catches one that dies or hangs later, so
 * an unattended run ends with exit 2 in a few request timeouts rather than
 * one timeout per remaining check (190 checks × 10 s). Any other verdict in
 * between resets the count: a flaky check is not a dead target.
 */
export class TargetWatch implements Reporter {
  readonly #streak: number;
  readonly #onDead: (reason: string) => void;
  #count = 0;
  #reason: string | undefined;

  constructor(onDead: (reason: string) => void, streak = DEFAULT_UNREACHABLE_STREAK) {
    this.#onDead = onDead;
    this.#streak = streak;
  }

  /** Why the run was stopped; undefined while the target answers. */
  get reason(): string | undefined {
    return this.#reason;
  }

  onTestCaseResult(testCase: TestCase): void {
    if (this.#reason !== undefined) return;
    const outcome = testCase.meta().conformance;
    if (!outcome || outcome.verdict === 'skipped') return;
    const code = outcome.harnessError?.code;
    if (outcome.verdict !== 'error' || code === undefined || !UNREACHABLE.has(code)) {
      this.#count = 0;
      return;
    }
    this.#count += 1;
    if (this.#count < this.#streak) return;
    // The harness message names the request and the cause; it was redacted where it was made.
    this.#reason = `the target stopped answering: ${this.#count} checks in a row could not reach it (last: ${outcome.harnessError?.message ?? code})`;
    this.#onDead(this.#reason);
  }
}
