import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../lib/check/verdict.js';
import { computeHistory } from '../../lib/reports/history.js';
import { renderMarkdown } from '../../lib/reports/markdown.js';
import { sampleReport } from './support/sample-report.js';

/** An earlier run as the history directory keeps it, with some verdicts changed. */
function earlier(at: string, verdicts: Record<string, Verdict>, changes: { target?: string } = {}) {
  const report = sampleReport({
    started_at: at,
    ...(changes.target ? { target: changes.target } : {}),
  });
  return {
    ...report,
    results: report.results.map((r) => ({ ...r, verdict: verdicts[r.rule_id] ?? r.verdict })),
  };
}

describe('history', () => {
  // This run: IDEM-03 failed, TOKEN-12 warning, TOKEN-01 passed (sample-report.ts).
  const now = sampleReport({ started_at: '2025-01-05T00:00:00.000Z' });

  it('lists new failures and fixed rules against the latest comparable run', () => {
    const history = computeHistory(
      now,
      [earlier('2025-01-04T00:00:00.000Z', { 'IDEM-03': 'passed', 'TOKEN-12': 'failed' })],
      '/h',
    );
    expect(history.new_failures).toEqual(['IDEM-03']);
    expect(history.fixed).toEqual(['TOKEN-12']);
    expect(history.flaky).toEqual([]);
    expect(history.rules['IDEM-03']?.verdicts).toEqual(['passed', 'failed']);
  });

  it('marks flaky a verdict that changes back and forth with suite, profile and target unchanged', () => {
    const history = computeHistory(
      now,
      [
        earlier('2025-01-02T00:00:00.000Z', { 'IDEM-03': 'failed' }),
        earlier('2025-01-03T00:00:00.000Z', { 'IDEM-03': 'passed' }),
      ],
      '/h',
    );
    expect(history.flaky).toEqual(['IDEM-03']);
    expect(history.rules['IDEM-03']).toEqual({
      verdicts: ['failed', 'passed', 'failed'],
      flaky: true,
    });
    const md = renderMarkdown({ ...now, history });
    expect(md).toContain('- Flaky: IDEM-03');
    expect(md).toMatch(/\| IDEM-03 \| failed → passed → failed \| flaky \|/);
  });

  it('does not compare runs of another target (their changes have a cause)', () => {
    const history = computeHistory(
      now,
      [
        earlier('2025-01-02T00:00:00.000Z', { 'IDEM-03': 'passed' }, { target: 'http://other' }),
        earlier('2025-01-03T00:00:00.000Z', { 'IDEM-03': 'passed' }, { target: 'http://other' }),
      ],
      '/h',
    );
    expect(history.comparable_runs).toBe(0);
    expect(history.previous_runs).toBe(2);
    expect(history.new_failures).toEqual([]);
    expect(history.flaky).toEqual([]);
    expect(history.rules['IDEM-03']?.verdicts).toEqual(['failed']);
  });
});
