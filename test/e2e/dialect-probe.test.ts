import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * The dialect probe, through the CLI against the bundled reference: a
 * profile whose order body puts the lines elsewhere than the reference does
 * is found out by the dialect probe before any check. Exit 2, one line per
 * mismatch naming the profile field and the reference's 422 pointers, no
 * check run, no report written, nothing blamed on the target.
 */
describe('a run whose profile the target does not speak', () => {
  it('stops before any check with exit 2 and a line naming dialect.orderBody.items and the 422 pointers', async () => {
    const dir = emptyDir('dialect-probe-');
    const profile = join(dir, 'lines.json');
    writeFileSync(
      profile,
      JSON.stringify({ version: 2, dialect: { orderBody: { items: '/lines' } } }),
    );
    const reports = join(dir, 'reports');
    const run = await runCli(['--profile', profile, '--report-dir', reports]);
    expect(run.code, run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^conformance: error: dialect mismatch: dialect\.orderBody\.items: POST \/api\/on-demand\/v1\/orders answered 422 validation_failed/,
    );
    expect(lines[0]).toContain('the profile puts items at /lines');
    expect(lines[0]).toContain('errors[] at /items, /lines');
    expect(lines[1]).toContain('before any check');
    expect(lines[1]).toContain('--draft-profile');
    // No check ran: no progress line, no report; the probe's exchanges are kept beside where it would be.
    expect(run.stderr).not.toContain('checks ');
    expect(readdirSync(reports)).toEqual(['dialect-probe.json']);
    expect(lines[1]).toContain('dialect-probe.json');
    const kept = JSON.parse(readFileSync(join(reports, 'dialect-probe.json'), 'utf8'));
    expect(kept.mismatches[0].field).toBe('dialect.orderBody.items');
    const refused = kept.evidence.find(
      (e: { request: { method: string; url: string } }) =>
        e.request.method === 'POST' && e.request.url.endsWith('/orders'),
    );
    expect(refused.response.status).toBe(422);
    expect(JSON.parse(refused.request.body)).toHaveProperty('lines');
    // Secrets the probe handled (the key it made, its token) are redacted where recorded.
    const text = JSON.stringify(kept);
    expect(text).not.toMatch(/odp_test_sk_[A-Za-z0-9]{8}/);
    expect(text).not.toMatch(/odp_at_[A-Za-z0-9]{8}/);
  });
});
