import { resolve } from 'node:path';
import { ConfigError, quote } from '../config/config-error.js';
import { Environment } from '../config/environment.js';
import { DEFAULT_TIMEOUT_MS, defaultReportDir } from '../config/settings.js';
import { controlBase, targetOrigin } from '../config/urls.js';
import { DEFAULT_CHOICE, parseSituations, type SituationChoice } from '../sandbox/plan.js';

/** `client`'s settings. Holds a secret (the control token): never print it. */
export interface ClientOptions {
  /** The partner's command and its arguments. */
  command: string[];
  reportDir: string;
  choice: SituationChoice;
  target?: string;
  controlUrl?: string;
  controlToken?: string;
  timeoutMs: number;
  /** `--retry-after`: the Retry-After of the situations' 429s and 503s, in seconds. */
  retryAfterSeconds: number;
  /** Things the user should know that are not errors. */
  notices: string[];
}

export type ClientLoad = { help: true } | { help: false; options: ClientOptions };

/** The flags `client` takes before its command; each is a value flag but --help. */
const FLAGS = [
  'report-dir',
  'situations',
  'retry-after',
  'target',
  'control-url',
  'timeout',
] as const;
type Flag = (typeof FLAGS)[number];

/**
 * `client [flags] -- <command> [args…]`. Everything after `--` is the
 * command, untouched; without `--` (npx may take it for its own), the
 * first word that is not a flag starts it. An unknown flag, a flag without
 * its value or no command at all is a one-line configuration error.
 */
export function loadClientOptions(input: {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  now?: Date;
}): ClientLoad {
  const flags = new Map<Flag, string>();
  let command: string[] = [];
  const argv = [...input.argv];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      command = argv.slice(i + 1);
      break;
    }
    if (arg === '--help' || arg === '-h') return { help: true };
    if (!arg.startsWith('-')) {
      command = argv.slice(i);
      break;
    }
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)) as Flag;
    if (!arg.startsWith('--') || !FLAGS.includes(name)) {
      throw new ConfigError(
        arg.split('=')[0] ?? arg,
        'unknown option of client (see client --help)',
      );
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) {
      throw new ConfigError(`--${name}`, 'needs a value');
    }
    flags.set(name, value.trim());
  }
  if (command.length === 0 || command[0] === '') {
    throw new ConfigError(
      'client',
      'no command to grade: give it after --, e.g. client -- node my-client.mjs',
    );
  }

  const environment = Environment.load(input.cwd, input.env);
  const notices: string[] = [];
  const targetFlag = flags.get('target');
  const target = targetFlag === undefined ? undefined : targetOrigin(targetFlag, '--target');
  const urlSetting =
    flags.get('control-url') !== undefined
      ? { value: flags.get('control-url') as string, source: '--control-url' }
      : environment.get('CONTROL_URL');
  const tokenSetting = environment.get('CONTROL_TOKEN');
  let controlUrl: string | undefined;
  let controlToken: string | undefined;
  if (target) {
    if (!urlSetting) {
      throw new ConfigError(
        '--target',
        'needs the control API of that sandbox (--control-url URL and CONTROL_TOKEN): client mode plays its situations through it',
      );
    }
    controlUrl = controlBase(urlSetting.value, urlSetting.source);
    if (!tokenSetting)
      throw new ConfigError('CONTROL_TOKEN', `is required with ${urlSetting.source}`);
    if (tokenSetting.value.length < 8) {
      throw new ConfigError(
        tokenSetting.source,
        'must be at least 8 characters, so that reports can mask it reliably',
      );
    }
    controlToken = tokenSetting.value;
  } else if (flags.has('control-url')) {
    throw new ConfigError(
      '--control-url',
      'needs --target: without one the client is graded against the bundled reference, with its own control API',
    );
  } else if (tokenSetting || urlSetting) {
    notices.push(
      'CONTROL_URL and CONTROL_TOKEN are not used: without --target the bundled reference runs with a control API of its own',
    );
  }

  const timeoutText = flags.get('timeout');
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (timeoutText !== undefined) {
    timeoutMs = /^\d+$/.test(timeoutText) ? Number(timeoutText) : Number.NaN;
    if (!(timeoutMs >= 100 && timeoutMs <= 600_000)) {
      throw new ConfigError(
        '--timeout',
        `must be an integer from 100 to 600000, got ${quote(timeoutText)}`,
      );
    }
  }
  const retryText = flags.get('retry-after');
  let retryAfterSeconds = 1;
  if (retryText !== undefined) {
    retryAfterSeconds = /^\d+$/.test(retryText) ? Number(retryText) : Number.NaN;
    if (!(retryAfterSeconds >= 1 && retryAfterSeconds <= 60)) {
      throw new ConfigError(
        '--retry-after',
        `must be an integer from 1 to 60, got ${quote(retryText)}`,
      );
    }
  }
  const situations = flags.get('situations');
  const reportDir = flags.get('report-dir');
  return {
    help: false,
    options: {
      command,
      reportDir:
        reportDir === undefined
          ? defaultReportDir(input.cwd, input.now ?? new Date())
          : resolve(input.cwd, reportDir),
      choice: situations === undefined ? DEFAULT_CHOICE : parseSituations(situations),
      ...(target ? { target } : {}),
      ...(controlUrl ? { controlUrl } : {}),
      ...(controlToken ? { controlToken } : {}),
      timeoutMs,
      retryAfterSeconds,
      notices,
    },
  };
}

/** `client --help`. */
export function clientHelpText(situations: readonly string[]): string {
  return [
    'Grade your client against the client rules of the API document',
    '',
    'Usage: npx partner-ordering-conformance client [options] -- <command> [args…]',
    '       npm run conformance -- client [options] -- <command> [args…]',
    '',
    'Starts the bundled reference as a sandbox on a free loopback port with a fresh test',
    'account, key and products, runs <command> with TARGET_BASE_URL, PARTNER_ACCESS_KEY_ID and',
    "PARTNER_SECRET_KEY in its environment, plays situations on the client's traffic (a 500,",
    'a 429, an expired token, …), and when the command ends writes a client report.',
    '',
    'Options:',
    '  --report-dir DIR          where the report goes (default reports/<UTC timestamp>)',
    '  --situations LIST         situations to play, comma-separated (default all); NAME:N plays',
    '                            one N times; none plays nothing. Situations:',
    ...wrap(situations.join(', '), 60).map((line) => `                              ${line}`),
    '  --retry-after SECONDS     the Retry-After of the situations’ 429s and 503s, and how long',
    '                            read-only and unavailable last (default 1, up to 60)',
    '  --target URL              grade against another sandbox instead, through its control API:',
    '  --control-url URL         its control API (or CONTROL_URL), with CONTROL_TOKEN in the environment',
    '  --timeout MS              timeout of each request passed on to the sandbox (default 10000)',
    '',
    'Exit codes:',
    '  0    no MUST client rule broken (the command’s own exit code is in the report)',
    '  1    a MUST client rule was broken',
    '  2    the grading could not be carried out (bad options, a command that cannot start,',
    '       a sandbox that cannot start, Ctrl-C: the report is still written when the command ran)',
    '  130  Ctrl-C twice: quit at once',
    '',
    'Reports: report.json, report.html (broken rules first), junit.xml, summary.md, exchanges.har.',
    'See docs/partners.md, "Grade your client", and docs/client-rules.md.',
    '',
  ].join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
