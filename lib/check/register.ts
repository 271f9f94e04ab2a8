import { test } from 'vitest';
import { type RuleId, ruleById } from '../../rules/index.js';
import type { CheckOutcome } from './check-outcome.js';
import { CheckRun } from './check-run.js';
import type { CheckContext } from './context-api.js';
import { Context } from './context-impl.js';
import { checkFileInGroup, type FileFixture, fileFixture } from './file-fixture.js';

export interface CheckOptions {
  /** Per-check timeout in ms (default 60 s): generated properties may need more. */
  timeout?: number;
  /**
   * The check touches only accounts it makes itself (their keys, clocks,
   * limits and orders are its alone; never a shared value or module state;
   * its `ctx.account()` is an account made for it alone, with the file
   * account's settings), so it may run beside the file's other such
   * checks: when the run goes side by side (RunConfig.concurrency above 1:
   * a target far away, and by default the bundled reference) with the control
   * features `accounts` and `keys`, vitest runs a row of them concurrently.
   * At `--concurrency 1`, in partner mode and in the defect matrix the file's
   * checks run one after another. A check drawing on the file's account, moving a shared clock or
   * spending a shared rate limit must leave this unset.
   */
  ownAccounts?: boolean;
}

/**
 * Declares, before its checks, that every check of this file touches only
 * accounts it makes itself (`CheckOptions.ownAccounts` for each of them),
 * `ctx.account()` included: each check's is made for it alone, so against a
 * target far away the file's checks may run side by side.
 */
export function checksUseOwnAccounts(): void {
  fileFixture().ownAccounts = true;
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
  /** A catalogue rule's id: one the catalogue lacks fails typecheck (`RuleId`). */
  ruleId: RuleId,
  body: (ctx: CheckContext) => Promise<void>,
  options: CheckOptions = {},
): void {
  const rule = ruleById(ruleId);
  const fixture = fileFixture();
  const ownAccounts = options.ownAccounts ?? fixture.ownAccounts;
  fixture.checkRegistered();
  const alongside = ownAccounts && runsAlongside(fixture);
  const testOptions = {
    timeout: options.timeout ?? timeoutOf(fixture),
    concurrent: alongside,
    // The collector reads the rule from here, never back out of the test's name; and the check
    // file, when a group loaded it (lib/runner/check-group.ts): the reports name that file.
    meta: { ruleId: rule.id, ...inGroup(checkFileInGroup()) },
  };
  test(`${rule.id} ${rule.title}`, testOptions, async ({ task, skip }) => {
    const run = new CheckRun(rule, fixture.recorder, fixture.redactor);
    // One evidence scope: the body, its clean-ups, and the revocation of the keys it made.
    const outcome = await run.execute(async () => {
      try {
        // Beside other checks, a faker of its own: the file's one instance is reseeded per check.
        const ctx = new Context(fixture, run, { ownFaker: alongside, ownAccount: ownAccounts });
        ctx.need(...rule.needs);
        await body(ctx);
      } finally {
        // Each undoes one thing the check made: independent, so all at once.
        await Promise.all(run.cleanups.map((cleanup) => cleanup().catch(() => undefined)));
        await revokeKeys(fixture, run);
      }
    });
    task.meta.conformance = outcome;
    // The file's last check closes it (its revocations awaited): a group keeps its tests to its end.
    await fixture.checkEnded();
    settle(outcome, skip);
  });
}

/**
 * Keys a check made are revoked as it ends: the account stays under its 10
 * active keys. All at once: a property in lanes makes a key per lane, and a
 * target far away should not be asked one revocation after another. When
 * files run side by side (a target far away), keys in accounts the check
 * made itself, which no other check uses, are revoked while the file's next
 * checks run (off the record: clean-up, not evidence) and awaited at the end
 * of the file; keys in the file's account are revoked before the check ends,
 * so that the next check finds that account under its limit.
 */
async function revokeKeys(fixture: FileFixture, run: CheckRun): Promise<void> {
  const control = fixture.session.controlFor(fixture.callerOf(run));
  const later = (fixture.config.concurrency ?? 1) > 1;
  await Promise.all(
    run.keys.map(async (key) => {
      fixture.session.tokens.forget(key);
      if (later && key.accountId !== undefined && run.accounts.has(key.accountId)) {
        fixture.revokeLater(key);
        return;
      }
      await control.revokeKey(key).catch(() => undefined);
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
 * Whether `ownAccounts` checks run side by side: only when the run goes side
 * by side (its concurrency above 1: lib/plan/concurrency.ts) and can make
 * accounts and keys, so that each such check really has its own.
 */
function runsAlongside(fixture: FileFixture): boolean {
  return (fixture.config.concurrency ?? 1) > 1 && fixture.has('accounts') && fixture.has('keys');
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

function inGroup(file: string | undefined): { checkFile?: string } {
  return file === undefined ? {} : { checkFile: file };
}
