import type { Exchange } from '../evidence/exchange.js';
import type { Replay } from '../evidence/trace.js';
import type { Verdict } from '../verdict/words.js';
import type { Violation } from '../violations/violation.js';

/** A generated input that broke a property, shrunk, with what replays it. */
export interface Counterexample {
  seed: number;
  path: string;
  /** The shrunk value, printed (secrets redacted). */
  value: string;
  numRuns: number;
}

/**
 * What a check leaves on its vitest task (`task.meta.conformance`) for the
 * reporter. Serializable; already redacted.
 */
export interface CheckOutcome {
  ruleId: string;
  verdict: Verdict;
  /** Why: the first violation, the missing capability, or the harness error. */
  reason?: string;
  /** Capabilities the run lacked, for `not_verifiable`. */
  missing?: string[];
  violations: Violation[];
  harnessError?: { code: string; message: string };
  evidence: Exchange[];
  counterexample?: Counterexample;
  /** Generated inputs per property as run, for a check with properties. */
  cases?: number;
  /** Free notes a check adds (what it tried, which reading it accepted). */
  notes: string[];
  /** Failed, warning and error outcomes: what a standalone reproduction replays. */
  replay?: Replay;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    /** The catalogue rule the check judges: set when `check()` registers the test. */
    ruleId?: string;
    /**
     * The check file (absolute path) the check registered from, when a group loaded it
     * (lib/runner/check-group.ts); absent when the file is vitest's own.
     */
    checkFile?: string;
    conformance?: CheckOutcome;
  }
}
