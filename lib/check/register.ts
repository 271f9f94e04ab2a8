import { test } from 'vitest';
import { ruleById } from '../../rules/index.js';
import { Context } from './check-context.js';
import { CheckRun } from './check-run.js';
import type { CheckContext } from './context.js';
import { type FileFixture, fileFixture } from './file-fixture.js';
import type { CheckOutcome } from './verdict.js';

export interface CheckOptions {
  /** Per-check timeout in ms (default 60 s): generated properties may need more. */
  timeout?: number;
}

/**
 * Registers the check of one catalogue rule as a vitest test named
 * `${id} ${title}`. The body gets a CheckContext; how it ends decides the
 * verdict (target contract, section 1):
 * - no violation → `passed`; violations → `failed` (MUST) or `warning` (SHOULD, DIALECT);
 * - NotVerifiable (a missing capability or credential) → `not_verifiable`;
 * - any other throw (network, set-up, a bug of ours) → `error`, never `failed`.
 * The outcome is left on `task.meta.conformance` for the reporter.
 */
export function check(
  ruleId: string,
  body: (ctx: CheckContext) => Promise<void>,
  options: CheckOptions = {},
): void {
  const rule = ruleById(ruleId);
  const fixture = fileFixture();
  test(`${rule.id} ${rule.title}`, { timeout: options.timeout ?? timeoutOf(fixture) }, async ({
    task,
    skip,
  }) => {
    const run = new CheckRun(rule, fixture.redactor);
    let ended: unknown;
    try {
      const ctx = new Context(fixture, run);
      ctx.need(...rule.needs);
      await body(ctx);
    } catch (error) {
      ended = error ?? new Error('a check threw undefined');
    }
    await revokeKeys(fixture, run);
    const outcome = run.finish(ended);
    task.meta.conformance = outcome;
    settle(outcome, skip);
  });
}

/**
 * Keys a check made are revoked as it ends: the account stays under its 10
 * active keys. All at once: a property in lanes makes a key per lane, and a
 * target far away should not be asked one revocation after another.
 */
async function revokeKeys(fixture: FileFixture, run: CheckRun): Promise<void> {
  const control = fixture.controlFor(run);
  await Promise.all(
    run.keys.map(async (key) => {
      await control.revokeKey(key).catch(() => undefined);
      fixture.tokens.forget(key);
    }),
  );
}

/** Makes vitest's own state agree with the verdict, so its output and the report tell one story. */
function settle(outcome: CheckOutcome, skip: (note?: string) => never): void {
  switch (outcome.verdict) {
    case 'failed':
      throw new Error(outcome.reason ?? 'the target broke this rule');
    case 'error':
      throw new Error(outcome.reason ?? 'the check could not be carried out');
    case 'not_verifiable':
      skip(outcome.reason);
      break;
    default:
      break;
  }
}

/**
 * A check's time limit. With the control API a check moves clocks instead of
 * waiting: one minute is ample. With only a partner key it shares that key's
 * limits with the whole run and waits out `Retry-After` (up to 65 s) and the
 * pacer (up to a window): several such waits must fit in one check.
 */
function timeoutOf(fixture: ReturnType<typeof fileFixture>): number {
  return fixture.config.controlUrl ? 60_000 : 300_000;
}
