import { isAbsolute, join } from 'node:path';
import { globSync } from 'tinyglobby';
import { isSelected } from '../config/only.js';
import { findChecks } from './find-checks.js';

/**
 * The check files a `--only` run needs: those that register a selected rule.
 * A file whose source names no rule id (it registers its tests otherwise) is
 * kept, to be safe. The others are not started at all: a one-rule run loads
 * one file in one worker instead of every file in as many workers as the run
 * allows only to skip their checks. Their rules are `skipped` all
 * the same (lib/verdict/rule-results.ts). Answers undefined when every file is needed.
 */
export function filesForOnly(
  root: string,
  include: string,
  only: readonly string[],
): string[] | undefined {
  if (only.length === 0) return undefined;
  const pattern = (isAbsolute(include) ? include : join(root, include)).replaceAll('\\', '/');
  const files = globSync(pattern, { absolute: true }).sort();
  return files.filter((file) => {
    const ids = findChecks(file).map((found) => found.ruleId);
    return ids.length === 0 || ids.some((id) => isSelected(only, id));
  });
}
