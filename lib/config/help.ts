import { ENV_ONLY, OPTION_GROUPS, OPTIONS, type OptionGroup } from './options.js';

/** The exit codes, each once: `--help`, the README and docs/nightly-ci.md say the same. */
export const EXIT_CODES: readonly [number, string][] = [
  [
    0,
    'no MUST check failed and none ended in error (outcome conforms; partial without --certify; or every MUST failure waived, which the exit reason says)',
  ],
  [1, 'a MUST check failed: the target does not conform (with --certify, also a waived one)'],
  [
    2,
    'the run could not be carried out (bad configuration, unreachable target, or a check ended in error, i.e. the suite could not decide)',
  ],
  [3, 'with --certify: no failure, but some MUST rule was not verified (outcome partial)'],
  [
    130,
    'Ctrl-C twice: quit at once (the first Ctrl-C cancels the run and still writes the reports)',
  ],
];

/** `--help`, generated from the option table so it never drifts from what is parsed. */
export function helpText(): string {
  const row = (option: (typeof OPTIONS)[number]) => {
    const flag = `--${option.flag}${'value' in option ? ` ${option.value}` : ''}`;
    const env = option.env ? `  [${option.env}]` : '';
    return `  ${flag.padEnd(26)}${option.description}${env}`;
  };
  const groups = Object.entries(OPTION_GROUPS).flatMap(([group, { title, example }]) => {
    const rows = OPTIONS.filter((option) => option.group === (group as OptionGroup)).map(row);
    const extra =
      group === 'target'
        ? ENV_ONLY.map(
            (variable) => `  ${variable.env.padEnd(26)}${variable.description} (environment only)`,
          )
        : [];
    return [`${title}:`, ...rows, ...extra, `  Example: ${example}`, ''];
  });
  const general = OPTIONS.filter((option) => option.group === 'general').map(row);
  return [
    'Partner Ordering API conformance suite',
    '',
    'Usage: npm run conformance -- [options]',
    '       npx partner-ordering-conformance [options]',
    '       npx partner-ordering-conformance client -- <command>   (grade your client: client --help)',
    '',
    'With no target, the bundled reference server is started on a free loopback port and tested.',
    'Each option is also read from the environment variable in brackets, or a .env file',
    '(.env.example lists them all).',
    '',
    ...groups,
    ...general,
    '',
    'Exit codes:',
    ...EXIT_CODES.map(([code, text]) => `  ${String(code).padEnd(4)}${text}`),
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
