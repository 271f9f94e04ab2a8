import { ENV_ONLY, OPTIONS } from './options.js';

/** `--help`, generated from the option table so it never drifts from what is parsed. */
export function helpText(): string {
  const rows = OPTIONS.map((option) => {
    const flag = `--${option.flag}${'value' in option ? ` ${option.value}` : ''}`;
    const env = option.env ? `  [${option.env}]` : '';
    return `  ${flag.padEnd(26)}${option.description}${env}`;
  });
  const envRows = ENV_ONLY.map((variable) => `  ${variable.env.padEnd(26)}${variable.description}`);
  return [
    'Partner Ordering API conformance suite',
    '',
    'Usage: npm run conformance -- [options]',
    '       npx partner-ordering-conformance [options]',
    '',
    'With no target, the bundled reference server is started on a free loopback port and tested.',
    '',
    'Options (each also read from the environment variable in brackets, or a .env file):',
    ...rows,
    '',
    'Environment only:',
    ...envRows,
    '',
    'Exit codes:',
    '  0  no MUST check failed and none ended in error (outcome conforms, or partial',
    '     without --certify)',
    '  1  at least one MUST check failed: the target does not conform',
    '  2  the run could not be carried out (bad configuration, unreachable target,',
    '     or a check ended in error, i.e. the suite could not decide)',
    '  3  with --certify: no failure, but some MUST rule was not verified (outcome partial)',
    '',
    'Outcome (report.json summary.outcome): conforms (every MUST rule verified, none failed),',
    'partial (none failed, some MUST rule not verified), does_not_conform, undecided (an error).',
    '',
    'Reports: report.json, report.html, junit.xml, summary.md, exchanges.har, manifest.json',
    '(+ manifest.sig with --sign-key) and allure-results/ in --report-dir. Every failed, warning',
    'and error result carries reproduce: {command, curl} (secrets only as $VARIABLES).',
    'Verify a package: --verify DIR [--public-key FILE] (exit 0 verified, 1 mismatch, 2 unreadable).',
    'See reports/README.md. DEBUG=conformance prints the stack of an internal error.',
  ].join('\n');
}
