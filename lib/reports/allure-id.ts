import { createHash } from 'node:crypto';

/**
 * The id Allure keeps a rule's history under (a result's `historyId` and
 * `testCaseId`): the MD5 of its test name, `<rule id> <title>`. The same for a
 * result allure-vitest wrote (lib/runner/allure.ts) and one completed for a
 * rule no check saw (allure-complete.ts), whatever copy of the suite ran it.
 */
export function allureRuleId(name: string): string {
  return createHash('md5').update(name).digest('hex');
}
