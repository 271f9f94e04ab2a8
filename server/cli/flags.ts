import { readFileSync } from 'node:fs';
import { parseAllowlistEntry } from '../auth/ip-allowlist.js';
import { ignoredFields, ProfileError, parseProfile } from '../dialect/profile.js';
import type { Durability } from '../store/db.js';

/** What `npm run reference -- …` asked for. */
interface CliOptions {
  host: string;
  port: number;
  db: string;
  controlToken: string | undefined;
  docsUrl: string | undefined;
  logger: boolean;
  durability: Durability;
  /** The parsed profile file (`--profile`), checked: the server speaks its dialect. */
  profile: unknown;
  /** Flat shipping charge in cents (`--shipping-cents`); undefined: none. */
  shippingCents: number | undefined;
  /** PostgreSQL instead of SQLite (`--database-url` or DATABASE_URL). */
  databaseUrl: string | undefined;
  /** Connections per instance (`--database-pool` or DATABASE_POOL_MAX). */
  databasePoolMax: number | undefined;
  /** How long an unreachable database is waited for at start, ms (`--database-wait` or DATABASE_WAIT_SECONDS). */
  databaseWaitMs: number;
  /** Proxies whose X-Forwarded-For is believed (`--trust-proxy` or TRUST_PROXY); empty: none. */
  trustProxy: string[];
  /** Connections one client address may hold (`--max-connections-per-address`); undefined: the default. */
  maxConnectionsPerAddress: number | undefined;
  /** Lines for stderr: secrets given where `ps` shows them, each naming the variable to use instead. */
  warnings: string[];
}

export type FlagsResult =
  | { ok: true; options: CliOptions }
  | { ok: true; help: true }
  | { ok: false; error: string };

export const USAGE = `usage: npm run reference -- [--port N] [--host H] [--db PATH] [--control-token-file FILE] [--durability MODE] [--database-url URL] [--database-pool N] [--database-wait S] [--trust-proxy LIST] [--max-connections-per-address N] [--docs-url URL] [--profile FILE] [--shipping-cents N] [--log]

  --port N                  port to listen on (0 picks a free one; default 4010)
  --host H                  address to bind (default 127.0.0.1)
  --db PATH                 SQLite file (default ./reference.db; :memory: keeps nothing)
  --control-token-file FILE mount the control API at /__control, guarded by the token in FILE
                            (or set CONTROL_TOKEN; without either there is no control API)
  --durability MODE         durable (default): an answer to a write waits for its fsync;
                            relaxed: no fsync, a power loss may drop acknowledged writes
  --database-url URL        postgres://…: keep everything in PostgreSQL, shared by several instances
                            (or set DATABASE_URL; the environment keeps a password out of ps)
  --database-pool N         connections per instance to PostgreSQL (default 10, or DATABASE_POOL_MAX)
  --database-wait S         at start, wait up to S seconds for a database that does not answer
                            (default 60, or DATABASE_WAIT_SECONDS; /readyz answers 503 meanwhile; 0: exit at once)
  --trust-proxy LIST        comma-separated addresses or CIDRs of balancers whose X-Forwarded-For
                            names the client (or TRUST_PROXY; default none)
  --max-connections-per-address N
                            connections one client address may hold at once (default 512)
  --docs-url URL            docs_url of problem type URIs (default https://docs.example.com)
  --profile FILE            speak the dialect of this target profile (docs/profiles.md):
                            paths, methods, statuses, bodies, answers, key prefix, docs_url
  --shipping-cents N        add a flat shipping charge of N cents to every order and quote
                            total (default 0: the reference charges no shipping)
  --log                     log requests to stderr (credentials masked)

  A token given on the command line (--control-token) is visible to every user of the
  machine in the process list; it is accepted for old scripts only.`;

const VALUE_FLAGS = new Set([
  '--port',
  '--host',
  '--db',
  '--control-token',
  '--control-token-file',
  '--durability',
  '--docs-url',
  '--profile',
  '--shipping-cents',
  '--database-url',
  '--database-pool',
  '--database-wait',
  '--trust-proxy',
  '--max-connections-per-address',
]);
const BOOLEAN_FLAGS = new Set(['--log', '--help', '-h']);

/** Reads the control token file; a test passes its own. */
export type ReadTokenFile = (path: string) => string;

const readTokenFile: ReadTokenFile = (path) => readFileSync(path, 'utf8');

/** Parses the command line; never throws. `env` supplies CONTROL_TOKEN. */
export function parseFlags(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
  readFile: ReadTokenFile = readTokenFile,
): FlagsResult {
  const values = new Map<string, string>();
  const booleans = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    if (BOOLEAN_FLAGS.has(name) && eq === -1) {
      booleans.add(name);
      continue;
    }
    if (!VALUE_FLAGS.has(name))
      return { ok: false, error: `unknown argument ${JSON.stringify(arg)} (see --help)` };
    if (values.has(name)) return { ok: false, error: `${name} is given more than once` };
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq === -1 && value.startsWith('--'))) {
      return { ok: false, error: `${name} needs a value` };
    }
    values.set(name, value);
  }
  if (booleans.has('--help') || booleans.has('-h')) return { ok: true, help: true };

  const portText = values.get('--port') ?? '4010';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    return {
      ok: false,
      error: `--port must be an integer from 0 to 65535, got ${JSON.stringify(portText)}`,
    };
  }
  const host = values.get('--host') ?? '127.0.0.1';
  if (host === '') return { ok: false, error: '--host must not be empty' };
  const db = values.get('--db') ?? './reference.db';
  if (db === '') return { ok: false, error: '--db must not be empty' };
  const tokenFile = values.get('--control-token-file');
  if (tokenFile !== undefined && values.has('--control-token')) {
    return { ok: false, error: 'give --control-token-file or --control-token, not both' };
  }
  let controlToken = values.get('--control-token') ?? (env.CONTROL_TOKEN || undefined);
  if (tokenFile !== undefined) {
    try {
      // One line: a trailing newline (echo, editors) is not part of the token.
      controlToken = readFile(tokenFile).replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return {
        ok: false,
        error: `--control-token-file ${JSON.stringify(tokenFile)} cannot be read${typeof code === 'string' ? ` (${code})` : ''}`,
      };
    }
    if (controlToken.trim() === '' || controlToken.includes('\n')) {
      return { ok: false, error: '--control-token-file must hold the token on one non-empty line' };
    }
  }
  if (controlToken !== undefined && controlToken.trim() === '') {
    return { ok: false, error: '--control-token must not be empty' };
  }
  const durability = values.get('--durability') ?? 'durable';
  if (durability !== 'durable' && durability !== 'relaxed') {
    return {
      ok: false,
      error: `--durability must be durable or relaxed, got ${JSON.stringify(durability)}`,
    };
  }
  const databaseUrl = values.get('--database-url') ?? (env.DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^\s]+$/.test(databaseUrl)) {
    // The URL may hold a password: never echo it.
    return { ok: false, error: '--database-url (or DATABASE_URL) must be a postgres:// URL' };
  }
  const poolText = values.get('--database-pool') ?? (env.DATABASE_POOL_MAX || undefined);
  if (poolText !== undefined && (!/^\d{1,3}$/.test(poolText) || Number(poolText) < 1)) {
    return {
      ok: false,
      error: `--database-pool must be an integer from 1 to 999, got ${JSON.stringify(poolText)}`,
    };
  }
  const waitText = values.get('--database-wait') ?? (env.DATABASE_WAIT_SECONDS || undefined);
  if (waitText !== undefined && !/^\d{1,5}$/.test(waitText)) {
    return {
      ok: false,
      error: `--database-wait must be a whole number of seconds, got ${JSON.stringify(waitText)}`,
    };
  }
  const trustText = values.get('--trust-proxy') ?? (env.TRUST_PROXY || undefined);
  const trustProxy =
    trustText === undefined
      ? []
      : trustText
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '');
  const badProxy = trustProxy.find((entry) => parseAllowlistEntry(entry) === undefined);
  if (badProxy !== undefined || (trustText !== undefined && trustProxy.length === 0)) {
    return {
      ok: false,
      error: `--trust-proxy must list addresses or CIDRs separated by commas, got ${JSON.stringify(badProxy ?? trustText)}`,
    };
  }
  const shareText = values.get('--max-connections-per-address');
  if (shareText !== undefined && (!/^\d{1,5}$/.test(shareText) || Number(shareText) < 1)) {
    return {
      ok: false,
      error: `--max-connections-per-address must be an integer from 1 to 99999, got ${JSON.stringify(shareText)}`,
    };
  }
  const docsUrl = values.get('--docs-url');
  if (docsUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(docsUrl)) {
    return {
      ok: false,
      error: `--docs-url must be an http(s) URL, got ${JSON.stringify(docsUrl)}`,
    };
  }
  const profileFile = values.get('--profile');
  let profile: unknown;
  if (profileFile !== undefined) {
    const read = readProfile(profileFile, readFile);
    if (!read.ok) return read;
    profile = read.profile;
  }
  const shippingText = values.get('--shipping-cents');
  if (shippingText !== undefined && !/^\d{1,9}$/.test(shippingText)) {
    return {
      ok: false,
      error: `--shipping-cents must be a whole number of cents, got ${JSON.stringify(shippingText)}`,
    };
  }
  return {
    ok: true,
    options: {
      host,
      port: Number(portText),
      db,
      controlToken,
      docsUrl,
      logger: booleans.has('--log'),
      durability,
      profile,
      shippingCents: shippingText === undefined ? undefined : Number(shippingText),
      databaseUrl,
      databasePoolMax: poolText === undefined ? undefined : Number(poolText),
      databaseWaitMs: (waitText === undefined ? 60 : Number(waitText)) * 1_000,
      trustProxy,
      maxConnectionsPerAddress: shareText === undefined ? undefined : Number(shareText),
      warnings: [
        ...commandLineSecrets(values),
        ...(profile === undefined
          ? []
          : ignoredFields(profile).map((line) => `warning: --profile: ${line}`)),
      ],
    },
  };
}

/**
 * Secrets given as flags are visible to every user of the machine (`ps`,
 * /proc/PID/cmdline): accepted, with a warning naming the safer way.
 */
function commandLineSecrets(values: ReadonlyMap<string, string>): string[] {
  const warnings: string[] = [];
  if (values.has('--control-token')) {
    warnings.push(
      'warning: --control-token is visible to every user of this machine in the process list; set CONTROL_TOKEN or use --control-token-file',
    );
  }
  const url = values.get('--database-url');
  if (url !== undefined && hasPassword(url)) {
    warnings.push(
      'warning: --database-url holds a password, visible to every user of this machine in the process list; set DATABASE_URL instead',
    );
  }
  return warnings;
}

function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    // Unreadable: say so to be safe (the URL itself is never printed).
    return /:[^@/]*@/.test(url);
  }
}

/** The profile file, parsed and checked; every problem on its own line. */
function readProfile(
  file: string,
  readFile: ReadTokenFile,
): { ok: true; profile: unknown } | { ok: false; error: string } {
  const at = `--profile ${JSON.stringify(file)}`;
  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      error: `${at} cannot be read${typeof code === 'string' ? ` (${code})` : ''}`,
    };
  }
  let profile: unknown;
  try {
    profile = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${at} is not JSON: ${(error as Error).message}` };
  }
  try {
    parseProfile(profile);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    return { ok: false, error: error.problems.map((line) => `${at}: ${line}`).join('\n') };
  }
  return { ok: true, profile };
}
