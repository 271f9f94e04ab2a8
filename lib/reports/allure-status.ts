import type { Verdict } from '../verdict/words.js';

/** Allure has four statuses; a conformance verdict maps onto them by what a reader should do. */
export const ALLURE_STATUS: Record<Verdict, 'passed' | 'failed' | 'broken' | 'skipped'> = {
  passed: 'passed',
  failed: 'failed',
  // A SHOULD or DIALECT finding: conformance stands (tagged `warning`).
  warning: 'passed',
  not_verifiable: 'skipped',
  skipped: 'skipped',
  // The harness broke, not the target: Allure's "broken".
  error: 'broken',
};
