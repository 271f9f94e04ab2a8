import { AREAS, type Rule } from '../../rules/index.js';
import { ConfigError, quote } from './config-error.js';

/**
 * `--only` selectors: rule ids (`IDEM-03`) and areas (`IDEM`). Every one must
 * name something in the catalogue: a typo must fail the run, not quietly
 * select nothing.
 */
export function parseOnly(
  values: readonly string[],
  source: string,
  rules: readonly Rule[],
): string[] {
  const selectors = values
    .flatMap((value) => value.split(','))
    .map((part) => part.trim().toUpperCase())
    .filter((part) => part !== '');
  if (values.length > 0 && selectors.length === 0) {
    throw new ConfigError(source, 'names no rule id or area');
  }
  for (const selector of selectors) {
    if (selector in AREAS) continue;
    const rule = rules.find((candidate) => candidate.id === selector);
    if (!rule) {
      throw new ConfigError(
        source,
        `${quote(selector)} is neither a rule id nor an area (areas: ${Object.keys(AREAS).join(', ')})`,
      );
    }
    if (rule.retired) throw new ConfigError(source, `${selector} is a retired rule`);
  }
  return [...new Set(selectors)];
}

/** Whether a rule is in the selection (no selectors: every rule is). */
export function isSelected(selectors: readonly string[], ruleId: string): boolean {
  if (selectors.length === 0) return true;
  const area = ruleId.split('-')[0] ?? '';
  return selectors.includes(ruleId) || selectors.includes(area);
}

/**
 * vitest's `testNamePattern` for the selection. Test names are
 * `${id} ${title}` (possibly behind describe names), so a selector matches
 * a whole word followed by a space.
 */
export function testNamePattern(selectors: readonly string[]): RegExp | undefined {
  if (selectors.length === 0) return undefined;
  const alternatives = selectors.map((selector) =>
    selector.includes('-') ? selector : `${selector}-\\d+`,
  );
  return new RegExp(`(?:^|\\s)(?:${alternatives.join('|')})\\s`);
}
