import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { unverifiedGroups } from '../../lib/reports/unverified.js';
import { sampleReport } from './support/sample-report.js';

/** Every hint names its fix: each lack, with the flag or setting that supplies it. */
const nv = (rule_id: string, reason: string, missing: string[] = []): RuleResult => ({
  rule_id,
  title: 'MUST something',
  section: '4',
  level: 'MUST',
  area: 'ORDER',
  verdict: 'not_verifiable',
  reason,
  ...(missing.length ? { missing } : {}),
});

describe('what a run lacked, and the fix', () => {
  const withControl = sampleReport().target_info;

  it('names --allow-live-orders for live orders, even with a control API', () => {
    const [group] = unverifiedGroups({
      target_info: { ...withControl, control_url: 'http://127.0.0.1:1/__control' },
      results: [nv('PROB-01', 'placing an order with a live key is real', ['live_orders'])],
    });
    expect(group?.fix).toContain('--allow-live-orders (CONFORMANCE_ALLOW_LIVE_ORDERS=true)');
  });

  it('names the control feature to announce when the control API lacks it', () => {
    const [group] = unverifiedGroups({
      target_info: { ...withControl, control_url: 'http://127.0.0.1:1/__control' },
      results: [nv('PAY-01', 'needs the control API feature "payments"', ['payments'])],
    });
    expect(group?.need).toContain('"payments"');
    expect(group?.fix).toContain('GET {control}/capabilities');
  });

  it('names the profile field a dialect gap needs', () => {
    const [group] = unverifiedGroups({
      target_info: withControl,
      results: [
        nv(
          'ORDER-01',
          'the order answer shows no id; the check needs it there: set dialect.answers.order.id in the profile if the target shows it elsewhere',
        ),
      ],
    });
    expect(group?.need).toBe('the profile field dialect.answers.order.id');
    expect(group?.fix).toContain('--profile FILE');
  });

  it('names a key or the control API when the run had neither', () => {
    const { control_url: _c, partner_key: _p, ...bare } = withControl;
    const groups = unverifiedGroups({
      target_info: { ...bare, capabilities: [] },
      results: [
        nv('IDEM-01', 'needs an API key: the run has no control API to make one', ['keys']),
        nv('KEY-01', 'needs the control API features "accounts", "keys"', ['accounts', 'keys']),
      ],
    });
    expect(groups.map((g) => g.fix)).toEqual([
      expect.stringContaining('PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY'),
      expect.stringContaining('--control-url URL with CONTROL_TOKEN'),
    ]);
  });
});
