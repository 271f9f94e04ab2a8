import { describe, expect, it } from 'vitest';
import { computeHistory } from '../../lib/reports/history.js';
import { renderMarkdown } from '../../lib/reports/markdown.js';
import type { Verdict } from '../../lib/verdict/words.js';
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

  it('a regression (passed → failed) is a regression, also when it failed before: never flaky', () => {
    const history = computeHistory(
      now,
      [
        earlier('2025-01-02T00:00:00.000Z', { 'IDEM-03': 'failed' }),
        earlier('2025-01-03T00:00:00.000Z', { 'IDEM-03': 'passed' }),
      ],
      '/h',
    );
    expect(history.new_failures).toEqual(['IDEM-03']);
    expect(history.flaky).toEqual([]);
    expect(history.rules['IDEM-03']).toEqual({ verdicts: ['failed', 'passed', 'failed'] });
    const md = renderMarkdown({ ...now, history });
    expect(md).toContain('- Regressions: IDEM-03');
    expect(md).toContain('- Flaky: none');
  });

  it('marks flaky a verdict that went and came back with suite, profile and target name unchanged', () => {
    // failed, passed, failed, and failed again now: two changes in the window, not a regression now.
    const history = computeHistory(
      now,
      [
        earlier('2025-01-02T00:00:00.000Z', { 'IDEM-03': 'failed' }),
        earlier('2025-01-03T00:00:00.000Z', { 'IDEM-03': 'passed' }),
        earlier('2025-01-04T00:00:00.000Z', { 'IDEM-03': 'failed' }),
      ],
      '/h',
    );
    expect(history.flaky).toEqual(['IDEM-03']);
    expect(history.new_failures).toEqual([]);
    expect(history.rules['IDEM-03']).toEqual({
      verdicts: ['failed', 'passed', 'failed', 'failed'],
      flaky: true,
    });
    const md = renderMarkdown({ ...now, history });
    expect(md).toContain('- Flaky: IDEM-03');
    expect(md).toMatch(/\| IDEM-03 \| failed → passed → failed → failed \| flaky \|/);
  });

  it('a verdict that judged nothing (not_verifiable, skipped, error) is no change', () => {
    const history = computeHistory(
      now,
      [
        earlier('2025-01-02T00:00:00.000Z', { 'IDEM-03': 'failed' }),
        earlier('2025-01-03T00:00:00.000Z', { 'IDEM-03': 'not_verifiable' }),
        earlier('2025-01-04T00:00:00.000Z', { 'IDEM-03': 'error' }),
      ],
      '/h',
    );
    expect(history.new_failures).toEqual([]);
    expect(history.flaky).toEqual([]);
  });

  it('is keyed by --target-name: a target on a new port keeps its history', () => {
    const named = (report: ReturnType<typeof sampleReport>) => ({
      ...report,
      target_info: { ...report.target_info, target_name: 'staging' },
    });
    const history = computeHistory(
      named(sampleReport({ started_at: '2025-01-05T00:00:00.000Z', target: 'http://127.0.0.1:2' })),
      [
        named(
          earlier(
            '2025-01-04T00:00:00.000Z',
            { 'IDEM-03': 'passed' },
            { target: 'http://127.0.0.1:1' },
          ),
        ),
      ],
      '/h',
    );
    expect(history.target_name).toBe('staging');
    expect(history.comparable_runs).toBe(1);
    expect(history.new_failures).toEqual(['IDEM-03']);
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
