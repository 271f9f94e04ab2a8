import { describe, expect, it } from 'vitest';
import type { Waiver } from '../../lib/config/waiver-file.js';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { applyWaivers } from '../../lib/verdict/apply-waivers.js';
import { exitDecision } from '../../lib/verdict/decide.js';

const result = (rule_id: string, verdict: RuleResult['verdict']): RuleResult => ({
  rule_id,
  title: 'MUST something',
  section: '4',
  level: 'MUST',
  area: 'ORDER',
  verdict,
});
const waiver = (rule_id: string, expires: string): Waiver => ({
  rule_id,
  reason: `ticket for ${rule_id}`,
  expires,
  expiresAt: new Date(`${expires}T23:59:59Z`),
});
const NOW = new Date('2025-01-01T00:00:00Z');
const failing = [
  result('ORDER-01', 'failed'),
  result('ORDER-02', 'failed'),
  result('ORDER-03', 'failed'),
];
const all = [
  waiver('ORDER-01', '2025-03-01'),
  waiver('ORDER-02', '2025-02-01'),
  waiver('ORDER-03', '2025-04-01'),
];

describe('waivers and the exit code', () => {
  it('every MUST failure waived: exit 0 with the honest line, earliest expiry first', () => {
    const { results } = applyWaivers(failing, 'w.json', all, NOW);
    const exit = exitDecision(results, []);
    expect(exit.code).toBe(0);
    expect(exit.reason).toMatch(
      /^Does not conform: 3 MUST failures, all waived until 2025-02-01 \(exit 0 only because of the waivers; not a certificate: --certify ignores waivers\); verified 3 of 3 MUST rules, \d+ of \d+ server statements checked$/,
    );
  });

  it('--certify ignores waivers: exit 1, naming what a waiver would have covered', () => {
    const { results, summary } = applyWaivers(failing, 'w.json', all, NOW, { certify: true });
    const exit = exitDecision(results, [], { certify: true });
    expect(exit.code).toBe(1);
    expect(exit.reason).toBe(
      '3 MUST checks failed: the target does not conform (--certify ignores waivers: a waiver would have covered ORDER-01, ORDER-02, ORDER-03)',
    );
    expect(summary.applied).toEqual([]);
    expect(summary.certify?.would_cover).toEqual(['ORDER-01', 'ORDER-02', 'ORDER-03']);
  });

  it('some waived: exit 1 for the others, the waived ones named', () => {
    const { results } = applyWaivers(failing, 'w.json', all.slice(0, 1), NOW);
    const exit = exitDecision(results, []);
    expect(exit.code).toBe(1);
    expect(exit.reason).toBe(
      '2 MUST checks failed: the target does not conform (1 more waived: ORDER-01)',
    );
  });

  it('every failure waived but a check ended in error: exit 2 for the error, never blamed on the waivers', () => {
    const { results } = applyWaivers([...failing, result('ORDER-04', 'error')], 'w.json', all, NOW);
    const exit = exitDecision(results, []);
    expect(exit.code).toBe(2);
    expect(exit.reason).toMatch(
      /^Does not conform: 3 MUST failures, all waived until 2025-02-01; and 1 check ended in error/,
    );
  });
});
