import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { readReport } from './support/report-files.js';
import { runCli } from './support/run-cli.js';

/**
 * The rate-limit and clock-heavy areas (windows, token age, probation all read the account
 * clock), and PROB and HOOK, whose files' checks use accounts of their own only: at more than
 * one file at a time those checks run side by side (checksUseOwnAccounts).
 */
const AREAS = 'RATE,AUTH,PROB,HOOK';

/** The shipping addresses (drawn from each check's faker) of the orders each PROB check sent, in order. */
function addressesByRule(dir: string): Record<string, string[]> {
  const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as {
    log: { entries: { pageref: string; request: { postData?: { text?: string } } }[] };
  };
  const byRule: Record<string, string[]> = {};
  for (const entry of har.log.entries) {
    if (!entry.pageref.startsWith('PROB-')) continue;
    const text = entry.request.postData?.text ?? '';
    const address = /"line1":"[^"]*"/.exec(text)?.[0];
    if (address) byRule[entry.pageref] = [...(byRule[entry.pageref] ?? []), address];
  }
  return byRule;
}

/** `concurrency` undefined: the bundled reference's default. */
async function verdicts(
  concurrency: string | undefined,
): Promise<{ stderr: string; verdicts: string[]; addresses: Record<string, string[]> }> {
  const dir = join(emptyDir(), `concurrency-${concurrency ?? 'default'}`);
  const result = await runCli([
    '--only',
    AREAS,
    '--seed',
    '16',
    ...(concurrency === undefined ? [] : ['--concurrency', concurrency]),
    '--report-dir',
    dir,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const report = readReport(dir);
  return {
    stderr: result.stderr,
    verdicts: report.results.map((r) => `${r.rule_id} ${r.verdict}`),
    addresses: addressesByRule(dir),
  };
}

describe('--concurrency against the bundled reference', () => {
  it('runs 4 check files at a time, or one with its checks side by side, with the verdicts of one at a time', async () => {
    const [one, four, sideBySide] = await Promise.all([
      verdicts('1'),
      verdicts('4'),
      verdicts(undefined),
    ]);
    expect(one.stderr).toMatch(/1 check file at a time$/m);
    expect(four.stderr).toContain('4 check files at a time');
    expect(sideBySide.stderr).toContain(
      '1 check file at a time, its checks on accounts of their own side by side',
    );
    expect(sideBySide.verdicts).toEqual(one.verdicts);
    expect(sideBySide.addresses).toEqual(one.addresses);
    // Each file has its own account: running them side by side changes no verdict.
    expect(four.verdicts).toEqual(one.verdicts);
    const passed = four.verdicts.filter((v) => v.endsWith(' passed'));
    expect(passed.length).toBeGreaterThan(10);
    expect(
      four.verdicts.filter((v) => /^(RATE|AUTH|PROB|HOOK)-/.test(v) && !v.endsWith(' passed')),
    ).toEqual([]);
    // Checks running side by side each draw from a faker of their own, seeded as before.
    expect(Object.keys(one.addresses).length).toBeGreaterThan(3);
    expect(four.addresses).toEqual(one.addresses);
  });
});
