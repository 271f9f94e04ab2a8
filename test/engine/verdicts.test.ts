import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { coverageFigure, coverageOf, exitDecision, outcomeOf } from '../../lib/verdict/decide.js';
import { activeRules } from '../../rules/index.js';
import { serverStatements } from '../../rules/statements/index.js';
import { emptyDir } from '../support/temp-dir.js';
import { pickRule } from './fixtures/pick-rule.js';
import { readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

function result(level: RuleResult['level'], verdict: RuleResult['verdict']): RuleResult {
  return {
    rule_id: `X-${level}-${verdict}`,
    title: 't',
    section: '1',
    level,
    verdict,
    area: 'AUTH',
  };
}

describe('outcome and coverage', () => {
  it('conforms only when every MUST rule was verified and none failed', () => {
    const all = [result('MUST', 'passed'), result('MUST', 'passed'), result('SHOULD', 'warning')];
    expect(outcomeOf(all)).toBe('conforms');
    expect(coverageOf(all)).toEqual({
      must_total: 2,
      must_verified: 2,
      should_total: 1,
      should_verified: 0,
      statements_total: serverStatements.length,
      statements_checked: 0,
    });
  });

  it('counts a server statement checked when a rule of it was verified and it has no gap', () => {
    const run = (verdict: RuleResult['verdict']): RuleResult[] => [
      { ...result('MUST', verdict), rule_id: 'AUTH-02' },
    ];
    const naming = serverStatements.filter(
      (s) => s.rules.includes('AUTH-02') && s.gap === undefined,
    );
    expect(naming.length).toBeGreaterThan(0);
    expect(coverageOf(run('failed')).statements_checked).toBe(naming.length);
    expect(coverageOf(run('passed')).statements_checked).toBe(naming.length);
    expect(coverageOf(run('not_verifiable')).statements_checked).toBe(0);
    expect(coverageFigure(coverageOf(run('passed')))).toBe(
      `verified 1 of 1 MUST rules, ${naming.length} of ${serverStatements.length} server statements checked`,
    );
    expect(coverageFigure(coverageOf(run('skipped')))).toBe(
      `verified 0 of 1 MUST rules, 0 of ${serverStatements.length} server statements checked: a partial run`,
    );
  });

  it('is partial when a MUST rule was not verified (not_verifiable or skipped)', () => {
    expect(outcomeOf([result('MUST', 'passed'), result('MUST', 'not_verifiable')])).toBe('partial');
    expect(outcomeOf([result('MUST', 'passed'), result('MUST', 'skipped')])).toBe('partial');
  });

  it('does not conform on a MUST failure, is undecided on an error without one', () => {
    expect(outcomeOf([result('MUST', 'failed'), result('MUST', 'error')])).toBe('does_not_conform');
    expect(outcomeOf([result('MUST', 'passed'), result('SHOULD', 'error')])).toBe('undecided');
    expect(outcomeOf([result('MUST', 'passed')], [{ source: 'vitest', message: 'x' }])).toBe(
      'undecided',
    );
  });

  it('exits 3 for a partial outcome only with --certify', () => {
    const partial = [result('MUST', 'passed'), result('MUST', 'not_verifiable')];
    expect(exitDecision(partial, []).code).toBe(0);
    expect(exitDecision(partial, []).reason).toContain('verified 1 of 2 MUST rules');
    expect(exitDecision(partial, [], { certify: true }).code).toBe(3);
    expect(exitDecision([result('MUST', 'passed')], [], { certify: true }).code).toBe(0);
    expect(exitDecision([result('MUST', 'failed')], [], { certify: true }).code).toBe(1);
  });
});

describe('a run that cannot verify every MUST rule', () => {
  let target: TinyTarget;
  const dir = join(emptyDir(), 'r');
  const certifyDir = join(emptyDir(), 'c');
  let run: Awaited<ReturnType<typeof runCli>>;
  let certified: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    target = await startTinyTarget('unauthorized');
    const args = ['--target', target.origin, ...fixtureSuites('judges-nothing')];
    run = await runCli([...args, '--report-dir', dir]);
    certified = await runCli([...args, '--report-dir', certifyDir], {
      CONFORMANCE_CERTIFY: 'true',
    });
  });
  afterAll(() => target?.close());

  it('ends a check that judged nothing not_verifiable, with the reason, never passed', () => {
    const report = readReport(dir);
    const silent = report.results.find((r) => r.rule_id === pickRule('MUST').id);
    expect(silent?.verdict).toBe('not_verifiable');
    expect(silent?.reason).toContain('without judging anything');
    expect(report.results.find((r) => r.rule_id === pickRule('MUST', 1).id)?.verdict).toBe(
      'passed',
    );
  });

  it('says partial with the coverage figure in every format, never "Conforms"', async () => {
    const report = readReport(dir) as unknown as {
      summary: { outcome: string; coverage: { must_verified: number; must_total: number } };
    };
    const mustTotal = activeRules.filter((r) => r.level === 'MUST').length;
    expect(report.summary.outcome).toBe('partial');
    expect(report.summary.coverage).toMatchObject({ must_verified: 1, must_total: mustTotal });
    const figure = `verified 1 of ${mustTotal} MUST rules`;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(figure);
    expect(run.stdout).toContain('Outcome: Partial');
    const { readFileSync } = await import('node:fs');
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    for (const text of [md, html, junit]) expect(text).toContain(figure);
    expect(md.split('\n')[0]).toMatch(/^# Conformance: Partial/);
    expect(html).toContain('data-outcome="partial"');
    expect(html).not.toContain('>Conforms<');
    expect(junit).toContain('<property name="conformance.outcome" value="partial"/>');
  });

  it('exits 3 with CONFORMANCE_CERTIFY', () => {
    expect(certified.code, certified.stderr).toBe(3);
    expect(certified.stdout).toContain('--certify needs every MUST rule verified');
  });
});

describe('unknown settings are named', () => {
  it('warns about a misspelt setting, naming the closest real one', async () => {
    const { unknownSettingWarnings } = await import('../../lib/config/unknown-settings.js');
    expect(
      unknownSettingWarnings([
        { name: 'CONFORMANCE_ONLYY', source: 'CONFORMANCE_ONLYY (.env)' },
        { name: 'PARTNER_SECRET', source: 'PARTNER_SECRET' },
        { name: 'CONFORMANCE_ONLY', source: 'CONFORMANCE_ONLY' },
        { name: 'HOME', source: 'HOME' },
        // The launcher's own (bin/conformance.js), from the environment: known.
        { name: 'CONFORMANCE_FROM_SOURCE', source: 'CONFORMANCE_FROM_SOURCE' },
      ]),
    ).toEqual([
      'warning: CONFORMANCE_ONLYY (.env) is not a setting of this suite and is ignored; did you mean CONFORMANCE_ONLY?',
      'warning: PARTNER_SECRET is not a setting of this suite and is ignored; did you mean PARTNER_SECRET_KEY?',
    ]);
  });

  it('warns about CONFORMANCE_FROM_SOURCE in .env, where the launcher never reads it', async () => {
    const { unknownSettingWarnings } = await import('../../lib/config/unknown-settings.js');
    expect(
      unknownSettingWarnings([
        { name: 'CONFORMANCE_FROM_SOURCE', source: 'CONFORMANCE_FROM_SOURCE (.env)' },
      ]),
    ).toHaveLength(1);
  });

  it('names the misspelt setting in the error a missing setting causes', async () => {
    const { writeFileSync } = await import('node:fs');
    const cwd = emptyDir();
    writeFileSync(
      join(cwd, '.env'),
      'TARGET_BASE_URL=http://127.0.0.1:9\nPARTNER_ACCESS_KEY_ID=odp_test_ak_Abc123\nPARTNER_SECRET_KY=odp_test_sk_Abc123\n',
    );
    const run = await runCli([], {}, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PARTNER_SECRET_KEY: is required with PARTNER_ACCESS_KEY_ID');
    expect(run.stderr).toContain('PARTNER_SECRET_KY (.env) is not a setting');
    expect(run.stderr).toContain('did you mean PARTNER_SECRET_KEY?');
  });

  it('prints the warning before the run', async () => {
    const { writeFileSync } = await import('node:fs');
    const cwd = emptyDir();
    writeFileSync(join(cwd, '.env'), 'CONFORMANCE_ONLYY=IDEM\n');
    const target = await startTinyTarget('unauthorized');
    try {
      const run = await runCli(
        ['--target', target.origin, '--report-dir', join(cwd, 'r'), ...fixtureSuites('passing')],
        {},
        cwd,
      );
      expect(run.stderr).toContain(
        'CONFORMANCE_ONLYY (.env) is not a setting of this suite and is ignored; did you mean CONFORMANCE_ONLY?',
      );
    } finally {
      await target.close();
    }
  });
});
