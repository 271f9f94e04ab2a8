/**
 * The vocabulary of verdicts (target contract, section 1; section 4 for the
 * exit codes): what every part of the suite names, decided only in
 * decide.ts. Nothing here imports anything, so any layer may name a verdict.
 */

/** How one check ended. */
export const VERDICTS = [
  'passed',
  'failed',
  'warning',
  'not_verifiable',
  'skipped',
  'error',
] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * How a run as a whole ended (an addition to the contract's report):
 * - `conforms`: every MUST rule verified, none failed, nothing ended in `error`;
 * - `partial`: none failed, no error, some MUST rule not verified;
 * - `does_not_conform`: a MUST rule failed;
 * - `undecided`: no failure, but a check (or the run) ended in `error`.
 */
export type Outcome = 'conforms' | 'partial' | 'does_not_conform' | 'undecided';

/** How much of the catalogue a run verified (`passed` or `failed`), per level. */
export interface Coverage {
  must_total: number;
  must_verified: number;
  should_total: number;
  should_verified: number;
  /**
   * The server statements of the statement index (docs/statements.md), and how many this run
   * checked: those with no gap one of whose rules it verified. Absent in reports written
   * before the index existed.
   */
  statements_total?: number;
  statements_checked?: number;
}

/**
 * The process's exit codes (target contract, section 4, and the additions of
 * docs/contract-additions.md). Code elsewhere names them, never the numbers.
 */
export const EXIT = {
  /** No MUST check failed and none ended in `error`. */
  ok: 0,
  /** A MUST check failed: the target does not conform. */
  failed: 1,
  /** The run could not be carried out (configuration, an unreachable target, a check in error). */
  notCarriedOut: 2,
  /** `--certify`: no failure, no error, but some MUST rule was not verified. */
  partialCertify: 3,
  /** A second Ctrl-C: the run was abandoned. */
  interrupted: 130,
} as const;

/** The exit codes a finished run can end with (report.json `exit_code`). */
export type RunExitCode =
  | typeof EXIT.ok
  | typeof EXIT.failed
  | typeof EXIT.notCarriedOut
  | typeof EXIT.partialCertify;

/** The run's exit code and the sentence that says why. */
export interface ExitDecision {
  code: RunExitCode;
  reason: string;
}
