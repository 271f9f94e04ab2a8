import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config/config-error.js';
import { compareReports, loadPreviousReport } from '../../lib/reports/compare.js';
import { renderJunit } from '../../lib/reports/junit.js';
import { renderMarkdown } from '../../lib/reports/markdown.js';
import { emptyDir } from '../support/temp-dir.js';
import { sampleReport, sampleResults } from './support/sample-report.js';

describe('junit.xml', () => {
  const xml = renderJunit(sampleReport());
  const testcase = (id: string) => {
    const match = new RegExp(
      `<testcase [^>]*name="${id} [^"]*"[^>]*?(/>|>[\\s\\S]*?</testcase>)`,
    ).exec(xml);
    if (!match) throw new Error(`no testcase ${id}`);
    return match[0];
  };

  it('has one testcase per rule, grouped by area, with the totals', () => {
    expect(xml.match(/<testcase /g)).toHaveLength(7);
    expect(xml).toMatch(/<testsuites [^>]*tests="7" failures="1" errors="1" skipped="3"/);
    expect(xml).toMatch(/<testsuite name="IDEM: Idempotency"/);
  });

  it('maps verdicts by their meaning', () => {
    expect(testcase('IDEM-03')).toMatch(
      /<failure message="expected HTTP 200, got 201" type="MUST violation">/,
    );
    expect(testcase('IDEM-03')).toContain('counterexample (shrunk after 17 runs)');
    // Replayed with the run's seed: the check mixes it with the rule id into the fast-check seed.
    expect(testcase('IDEM-03')).toContain(
      'replay: npm run conformance -- --target http://127.0.0.1:4010 --only IDEM-03 --seed 1234',
    );
    expect(testcase('ERR-01')).toMatch(
      /<error message="HARNESS_NETWORK[^"]*" type="HARNESS_NETWORK">/,
    );
    expect(testcase('PAY-02')).toMatch(
      /<skipped message="not_verifiable: needs the control feature payments"\/>/,
    );
    expect(testcase('RATE-01')).toMatch(/<skipped message="skipped: filtered out by --only"\/>/);
    expect(testcase('TOKEN-12')).toMatch(
      /<system-out>warning \(SHOULD\): header cache-control is missing/,
    );
    expect(testcase('TOKEN-12')).not.toMatch(/<failure|<error|<skipped/);
    expect(testcase('TOKEN-01')).toMatch(/\/>$/);
  });

  it('escapes what a target controls', () => {
    expect(xml).not.toContain('<img');
    expect(xml).not.toContain('<b>');
  });
});

describe('summary.md', () => {
  it('leads with the outcome and lists what needs attention', () => {
    const md = renderMarkdown(sampleReport());
    expect(md.split('\n')[0]).toMatch(
      /^# Conformance: Does not conform \(verified \d+ of \d+ MUST rules, \d+ of \d+ server statements checked(: a partial run)?\)$/,
    );
    expect(md).toContain('| 1 | 1 | 1 | 2 | 1 | 1 |');
    expect(md).toContain('## MUST failures (1)');
    expect(md).toContain('**IDEM-03**');
    expect(md).toContain(
      '(counterexample; replay: `npm run conformance -- --target http://127.0.0.1:4010 --only IDEM-03 --seed 1234',
    );
    expect(md).toContain('## Errors (the suite, not the target) (1)');
    // Every hint names its fix.
    expect(md).toContain('1 rule needs the control API ("payments"): give the control API');
    expect(md).toContain('--control-url URL with CONTROL\\_TOKEN');
    expect(md).toContain('1 rule needs a check (no check implements the rule yet');
    expect(md).toContain('1 rule needs the --only selection: widen or drop --only');
    expect(md).toContain('afterAll: \\<b\\>cleanup\\</b\\> failed');
  });
});

describe('--compare', () => {
  it('lists rules whose verdict changed, new and gone ones included', () => {
    const previous = {
      target: 'http://old',
      started_at: '2024-12-31T00:00:00.000Z',
      results: [
        { rule_id: 'IDEM-03', title: 'x', verdict: 'passed' as const },
        { rule_id: 'TOKEN-01', title: 'x', verdict: 'passed' as const },
        { rule_id: 'OLD-01', title: 'retired', verdict: 'failed' as const },
      ],
    };
    const changes = compareReports(previous, sampleResults(), 'prev/report.json');
    expect(changes.changed.map((c) => [c.rule_id, c.from, c.to])).toEqual([
      ['IDEM-03', 'passed', 'failed'],
      ['TOKEN-12', null, 'warning'],
      ['PAY-02', null, 'not_verifiable'],
      ['HOOK-01', null, 'not_verifiable'],
      ['RATE-01', null, 'skipped'],
      ['ERR-01', null, 'error'],
      ['OLD-01', 'failed', null],
    ]);
  });

  it('refuses a file that is not a report, naming the setting', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'a.json'), '{"results": "nope"}');
    expect(() => loadPreviousReport(join(dir, 'a.json'))).toThrow(ConfigError);
    expect(() => loadPreviousReport(join(dir, 'a.json'))).toThrow(
      /^--compare: .* is not a conformance report\.json/,
    );
  });
});
