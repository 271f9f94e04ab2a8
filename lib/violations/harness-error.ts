/**
 * Harness errors: the suite, the network or the set-up broke, not the target's
 * conformance. A check that ends in one gets the verdict `error`, which is never
 * counted as the target's failure (target contract, section 1). Modelled on
 * undici's `UND_ERR_*` codes: one class, a stable `code` per cause.
 */
const HARNESS_CODES = {
  HARNESS_NETWORK: 'the target could not be reached',
  HARNESS_TIMEOUT: 'the target did not answer in time',
  HARNESS_CONTROL: 'the control API refused or failed a set-up request',
  HARNESS_SETUP: 'the check could not set up the state it needs',
  HARNESS_CONFIG: 'the run configuration is invalid',
  HARNESS_BUG: 'the suite itself failed',
} as const;

export type HarnessCode = keyof typeof HARNESS_CODES;

export class HarnessError extends Error {
  override name = 'HarnessError';
  readonly code: HarnessCode;
  /** The HTTP status that caused it, when a request was answered (e.g. a refused control call). */
  readonly status: number | undefined;
  constructor(code: HarnessCode, message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.code = code;
    this.status = options?.status;
  }
}

/** Thrown by `ctx.need()` when the run lacks a capability: the verdict is `not_verifiable`. */
export class NotVerifiable extends Error {
  override name = 'NotVerifiable';
  readonly missing: readonly string[];
  constructor(reason: string, missing: readonly string[] = []) {
    super(reason);
    this.missing = missing;
  }
}

/** Thrown by a hard assertion after it recorded its violation: ends the check early. */
export class CheckStopped extends Error {
  override name = 'CheckStopped';
}
