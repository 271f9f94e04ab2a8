import { join } from 'node:path';
import { type FoundCheck, findChecks as findChecksAt } from '../../lib/runner/find-checks.js';

export type { FoundCheck };

/** Every `check('ID', …)` call in suites/, found by reading the files (no target needed). */
export function findChecks(root: string): FoundCheck[] {
  return findChecksAt(join(root, 'suites'), root);
}
