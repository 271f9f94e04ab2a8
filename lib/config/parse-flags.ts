import { parseArgs } from 'node:util';
import { ConfigError, quote } from './config-error.js';
import { OPTIONS, type OptionName } from './options.js';

export type FlagValue = string | string[] | boolean;

/**
 * Reads the command line strictly: an unknown flag, a missing value or a
 * stray argument is a configuration error, never silently ignored (a typo in
 * `--only` must not quietly run everything).
 */
export function parseFlags(argv: readonly string[]): Map<OptionName, FlagValue> {
  const options = Object.fromEntries(
    OPTIONS.map((option) => [
      option.flag,
      { type: option.kind === 'boolean' ? 'boolean' : 'string', multiple: option.kind === 'list' },
    ]),
  ) as Record<string, { type: 'boolean' | 'string'; multiple: boolean }>;
  let values: Record<string, FlagValue | undefined>;
  try {
    // Booleans never come as arrays: only list options are `multiple`.
    values = parseArgs({
      args: joinNegativeValues(argv),
      options,
      strict: true,
      allowPositionals: false,
    }).values as Record<string, FlagValue | undefined>;
  } catch (error) {
    throw flagError(error);
  }
  const out = new Map<OptionName, FlagValue>();
  for (const option of OPTIONS) {
    const value = values[option.flag];
    if (value !== undefined) out.set(option.flag, value);
  }
  return out;
}

/**
 * `--seed -5` means `--seed=-5`: parseArgs would read `-5` as an option. A
 * value-taking flag followed by a negative integer gets it as its value, so
 * the replay commands the reports print work in either form.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const takesValue = new Set(
    OPTIONS.filter((option) => option.kind !== 'boolean').map((option) => `--${option.flag}`),
  );
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (takesValue.has(arg) && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

/** Turns node's parseArgs errors (long, with advice about `--`) into one line naming the flag. */
function flagError(error: unknown): ConfigError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? 'command line';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new ConfigError(flag, 'unknown option (see --help)');
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new ConfigError(
        flag,
        /missing|ambiguous/.test(message) ? 'needs a value' : 'takes no value',
      );
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const argument = /'([^']*)'/.exec(message)?.[1] ?? '';
      return new ConfigError('command line', `unexpected argument ${quote(argument)} (see --help)`);
    }
    default:
      return new ConfigError('command line', message.split('\n')[0] ?? 'cannot be read');
  }
}
