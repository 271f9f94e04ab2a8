import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { sourceText } from '../../lib/reports/source-lines.js';
import { sourceOf } from '../../lib/verdict/rule-results.js';
import { ruleById } from '../../rules/index.js';

describe('a MUST rule resting on an API sentence and the reading the contract fixes', () => {
  it('carries the reading in its result and quotes it after the sentence', () => {
    const source = sourceOf(ruleById('HOOK-03'));
    expect(source).toMatchObject({
      doc: 'api',
      section: '6',
      reading: 'Deleted webhook endpoints do not count toward the five.',
    });
    const result = { rule_id: 'HOOK-03', source } as unknown as RuleResult;
    expect(sourceText(result)).toBe(
      'API document, section 6: “At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded.”, as the target contract reads it: “Deleted webhook endpoints do not count toward the five.”',
    );
  });

  it('has no reading where the rule needs none', () => {
    expect(sourceOf(ruleById('HOOK-01')).reading).toBeUndefined();
  });
});
