/**
 * The command line's options, one table: it drives argument parsing, the
 * environment lookup and `--help`, so the three never disagree. Every option
 * can also come from the environment or a `.env` file (target contract,
 * section 4); flags win over the environment, the environment over `.env`.
 */
export interface OptionSpec {
  /** Long flag without dashes. */
  flag: string;
  /** Environment variable that sets it when the flag is absent. */
  env: string;
  kind: 'string' | 'boolean' | 'list';
  /** Placeholder in `--help`. */
  value?: string;
  description: string;
  /** Never echoed: not in errors, not in help's defaults. */
  secret?: boolean;
  /** Where `--help` and `.env.example` list it. */
  group: OptionGroup;
}

/** `--help`'s and `.env.example`'s sections, in order, each with one example. */
export const OPTION_GROUPS = {
  target: {
    title: 'Target and credentials',
    example:
      'PARTNER_ACCESS_KEY_ID=odp_test_ak_… PARTNER_SECRET_KEY=… npm run conformance -- --target https://sandbox.example.com',
  },
  certification: {
    title: 'Certification',
    example:
      'CONTROL_TOKEN=… npm run conformance -- --target https://staging.example.com --control-url https://staging.example.com/__control --profile ./acme.json --certify --sign-key conformance.key',
  },
  nightly: {
    title: 'Nightly runs',
    example:
      'npm run conformance -- --profile staging --certify --waivers ci/waivers.json --history history --target-name staging --compare previous/report.json',
  },
  output: {
    title: 'Output',
    example: 'npm run conformance -- --report-dir reports/today',
  },
  tuning: {
    title: 'Tuning',
    example: 'npm run conformance -- --only IDEM-03,TOKEN --seed 1234 --num-runs 20',
  },
} as const;
export type OptionGroup = keyof typeof OPTION_GROUPS | 'general';

export const OPTIONS = [
  {
    flag: 'target',
    group: 'target',
    env: 'TARGET_BASE_URL',
    kind: 'string',
    value: 'URL',
    description:
      'origin of the server under test (the suite adds /api/on-demand/v1); none: the bundled reference server',
  },
  {
    flag: 'control-url',
    group: 'target',
    env: 'CONTROL_URL',
    kind: 'string',
    value: 'URL',
    description: "base URL of the target's control API (test support, never production)",
  },
  {
    flag: 'control-token',
    group: 'target',
    env: 'CONTROL_TOKEN',
    kind: 'string',
    value: 'TOKEN',
    description: 'X-Control-Token for the control API (prefer the environment: flags show in ps)',
    secret: true,
  },
  {
    flag: 'profile',
    group: 'target',
    env: 'CONFORMANCE_PROFILE',
    kind: 'string',
    value: 'NAME|PATH',
    description: 'target profile: a name under config/ (e.g. reference) or a path to a JSON file',
  },
  {
    flag: 'report-dir',
    group: 'output',
    env: 'CONFORMANCE_REPORT_DIR',
    kind: 'string',
    value: 'DIR',
    description: 'where the reports go (default: reports/<UTC timestamp>)',
  },
  {
    flag: 'only',
    group: 'tuning',
    env: 'CONFORMANCE_ONLY',
    kind: 'list',
    value: 'IDS',
    description:
      'run only these rule ids or areas (IDEM-03,TOKEN); comma-separated or repeated; the rest is skipped',
  },
  {
    flag: 'seed',
    group: 'tuning',
    env: 'CONFORMANCE_SEED',
    kind: 'string',
    value: 'N',
    description:
      'seed of every generated input; the same seed replays the same inputs (default: random)',
  },
  {
    flag: 'num-runs',
    group: 'tuning',
    env: 'CONFORMANCE_NUM_RUNS',
    kind: 'string',
    value: 'N',
    description: 'generated cases per property (default: 100)',
  },
  {
    flag: 'timeout',
    group: 'tuning',
    env: 'CONFORMANCE_TIMEOUT_MS',
    kind: 'string',
    value: 'MS',
    description: 'timeout of every single request in milliseconds (default: 10000)',
  },
  {
    flag: 'concurrency',
    group: 'tuning',
    env: 'CONFORMANCE_CONCURRENCY',
    kind: 'string',
    value: 'N',
    description:
      'check files run at a time (against a target elsewhere: workers, each running its share of the bundled files side by side), 1 to 32, each file in its own account (default: 8 with a control API; on the bundled reference 1, its checks side by side; always 1 with a partner key)',
  },
  {
    flag: 'allow-live-orders',
    group: 'target',
    env: 'CONFORMANCE_ALLOW_LIVE_ORDERS',
    kind: 'boolean',
    description: 'allow placing orders with a live key (real orders!); without it none is placed',
  },
  {
    flag: 'certify',
    group: 'certification',
    env: 'CONFORMANCE_CERTIFY',
    kind: 'boolean',
    description:
      'a certification run: waivers are ignored (a waived failure still exits 1) and a partial outcome (a MUST rule not verified) exits 3 instead of 0',
  },
  {
    flag: 'compare',
    group: 'nightly',
    env: 'CONFORMANCE_COMPARE',
    kind: 'string',
    value: 'FILE',
    description: "a previous run's report.json: list the rules whose verdict changed since",
  },
  {
    flag: 'suites',
    group: 'tuning',
    env: 'CONFORMANCE_SUITES',
    kind: 'string',
    value: 'GLOB',
    description: 'check files to run (default: the bundled suites/**/*.check.ts)',
  },
  {
    flag: 'waivers',
    group: 'nightly',
    env: 'CONFORMANCE_WAIVERS',
    kind: 'string',
    value: 'FILE',
    description:
      'JSON list of {rule_id, reason, expires, link?}: a waived failure stays failed but no longer fails the exit code until it expires (never with --certify)',
  },
  {
    flag: 'history',
    group: 'nightly',
    env: 'CONFORMANCE_HISTORY',
    kind: 'string',
    value: 'DIR',
    description:
      "keep each run's report.json there; the reports show each rule's last verdicts, new failures, fixed and flaky rules",
  },
  {
    flag: 'target-name',
    group: 'nightly',
    env: 'CONFORMANCE_TARGET_NAME',
    kind: 'string',
    value: 'NAME',
    description:
      'the name --history compares runs under (default: the target origin), so a target on a new port keeps its history',
  },
  {
    flag: 'sign-key',
    group: 'certification',
    env: 'CONFORMANCE_SIGN_KEY',
    kind: 'string',
    value: 'FILE',
    description: 'Ed25519 private key (PEM): sign manifest.json into manifest.sig',
  },
  {
    flag: 'draft-profile',
    group: 'target',
    env: '',
    kind: 'string',
    value: 'FILE',
    description:
      'probe the target (with the key or control API given) and write a version-2 profile of what it answers to FILE, with a TODO for what it could not infer; runs no check; never overwrites a file',
  },
  {
    flag: 'draft-profile-from',
    group: 'target',
    env: '',
    kind: 'string',
    value: 'FILE',
    description:
      "with --draft-profile: draft the profile from the target's OpenAPI 3.0/3.1 document FILE (JSON) instead of probing for it (paths, field names, statuses, money, list shape; a TODO for each field it cannot tell), then run the dialect probe against the target as a run would",
  },
  {
    flag: 'openapi',
    group: 'target',
    env: '',
    kind: 'string',
    value: 'FILE',
    description:
      "write the OpenAPI 3.1 description of the profile's dialect (the reference's by default) to FILE and exit; runs no check, needs no target; never overwrites a file",
  },
  {
    flag: 'verify',
    group: 'certification',
    env: '',
    kind: 'string',
    value: 'DIR',
    description:
      "check a report directory instead of running: every file's sha256 in manifest.json, and the signature",
  },
  {
    flag: 'public-key',
    group: 'certification',
    env: '',
    kind: 'string',
    value: 'FILE',
    description: 'with --verify: the Ed25519 public key (PEM) manifest.sig must verify with',
  },
  {
    flag: 'help',
    group: 'general',
    env: '',
    kind: 'boolean',
    description: 'print this help and exit',
  },
] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['flag'];

/**
 * Variables read from the environment only (no flag): a key's secret has no
 * business on a command line, where `ps` and shell history keep it.
 */
export const ENV_ONLY = [
  {
    env: 'PARTNER_ACCESS_KEY_ID',
    description:
      'Access Key ID of the key used when there is no control API (a test key; docs/partners.md shows how to make one on the bundled sandbox)',
  },
  {
    env: 'PARTNER_SECRET_KEY',
    description: 'its Secret Key (never written anywhere); both halves or neither',
    secret: true,
  },
] as const;

export function optionSpec(flag: OptionName): OptionSpec {
  const spec = OPTIONS.find((option) => option.flag === flag);
  if (!spec) throw new Error(`no option --${flag}`);
  return spec;
}
