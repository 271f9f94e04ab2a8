import type { CheckOutcome } from '../check/check-outcome.js';

/** One vitest test as the runner saw it at the end of the run. */
export interface CollectedTest {
  /** The test's own name: `${id} ${title}`. */
  name: string;
  /** The rule its check registered (`task.meta.ruleId`); absent for a test not made by `check()`. */
  ruleId?: string;
  /** The check file, relative to the suite's root. */
  file: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** How the suite declared it: `skip` and `todo` never run. */
  mode: 'run' | 'only' | 'skip' | 'todo';
  /** vitest's errors (timeouts, throws outside the check's own handling), one line each. */
  errors: string[];
  /** What `check()` left on `task.meta.conformance`; absent when it never got that far. */
  outcome?: CheckOutcome;
  durationMs?: number;
}

/** An error of a whole file: it did not load, or a hook outside any test broke. */
export interface FileError {
  file: string;
  message: string;
  /** False when the file failed before any test was collected (its checks are unknown). */
  collected: boolean;
}

export interface CollectedRun {
  tests: CollectedTest[];
  fileErrors: FileError[];
  /** Errors vitest could not attach to any file. */
  unhandled: string[];
  /** `passed`, `failed` or `interrupted`, as vitest ends a run. */
  endReason: string;
}
