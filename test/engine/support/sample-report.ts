import type { Report, RuleResult } from '../../../lib/reports/report-model.js';
import { coverageOf } from '../../../lib/verdict/decide.js';

/** A result of each verdict, with hostile text where a target controls it. */
export function sampleResults(): RuleResult[] {
  return [
    {
      rule_id: 'IDEM-03',
      title: 'MUST replay with 200 and Idempotent-Replayed: true',
      section: '4',
      level: 'MUST',
      area: 'IDEM',
      verdict: 'failed',
      reason: 'expected HTTP 200, got 201',
      violations: [
        {
          code: 'STATUS',
          pointer: '/status',
          expected: 200,
          received: 201,
          message: 'expected HTTP 200, got 201',
          exchange: 2,
        },
      ],
      counterexample: { seed: -98765, path: '3:1:0', value: '{"quantity":0}', numRuns: 17 },
      evidence: [
        {
          id: 2,
          channel: 'api',
          startedAt: '2025-01-01T00:00:00.000Z',
          durationMs: 3,
          request: {
            method: 'POST',
            url: '/api/on-demand/v1/orders',
            headers: { authorization: 'Bearer [REDACTED:token#1]' },
            body: '{"quantity":0}',
          },
          response: {
            status: 201,
            headers: { 'content-type': 'text/html' },
            body: '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>',
          },
        },
      ],
      file: 'suites/idem/replay.check.ts',
      duration_ms: 40,
    },
    {
      rule_id: 'TOKEN-12',
      title: 'SHOULD send Cache-Control: no-store with tokens',
      section: '4',
      level: 'SHOULD',
      area: 'TOKEN',
      verdict: 'warning',
      reason: 'header cache-control is missing',
      file: 'suites/token/cache.check.ts',
    },
    {
      rule_id: 'TOKEN-01',
      title: 'MUST issue an access token for valid Basic credentials',
      section: '4',
      level: 'MUST',
      area: 'TOKEN',
      verdict: 'passed',
      file: 'suites/token/issue.check.ts',
    },
    {
      rule_id: 'PAY-02',
      title: 'MUST answer 402 card_declined with decline_code',
      section: '7',
      level: 'MUST',
      area: 'PAY',
      verdict: 'not_verifiable',
      reason: 'needs the control feature payments',
      missing: ['payments'],
      file: 'suites/pay/declined.check.ts',
    },
    {
      rule_id: 'HOOK-01',
      title: 'MUST refuse a sixth webhook endpoint in a mode',
      section: '2',
      level: 'MUST',
      area: 'HOOK',
      verdict: 'not_verifiable',
      reason: 'uncovered: no check implements this rule',
      uncovered: true,
    },
    {
      rule_id: 'RATE-01',
      title: 'MUST answer 429 with Retry-After over the limit',
      section: '8',
      level: 'MUST',
      area: 'RATE',
      verdict: 'skipped',
      reason: 'filtered out by --only',
      file: 'suites/rate/limit.check.ts',
    },
    {
      rule_id: 'ERR-01',
      title: 'MUST answer errors as application/problem+json',
      section: '7',
      level: 'MUST',
      area: 'ERR',
      verdict: 'error',
      reason: 'HARNESS_NETWORK: the target could not be reached',
      harness_error: { code: 'HARNESS_NETWORK', message: 'connect ECONNREFUSED' },
      file: 'suites/err/problem.check.ts',
    },
  ];
}

export function sampleReport(overrides: Partial<Report> = {}): Report {
  const results = sampleResults();
  return {
    suite_version: '0.1.0',
    contract_version: '1',
    target: 'http://127.0.0.1:4010',
    target_info: {
      api_base_url: 'http://127.0.0.1:4010/api/on-demand/v1',
      embedded_reference: false,
      profile: 'reference dialect',
      capabilities: ['accounts', 'keys'],
    },
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:12.000Z',
    duration_ms: 12_000,
    seed: 1234,
    num_runs: 100,
    exit_code: 1,
    exit_reason: '1 MUST check failed: the target does not conform',
    summary: {
      passed: 1,
      failed: 1,
      warning: 1,
      not_verifiable: 2,
      skipped: 1,
      error: 1,
      coverage: coverageOf(results),
      outcome: 'does_not_conform',
    },
    coverage: { rules: 7, checked: 6, uncovered: 1 },
    results,
    run_errors: [{ source: 'suites/x.check.ts', message: 'afterAll: <b>cleanup</b> failed' }],
    ...overrides,
  };
}
