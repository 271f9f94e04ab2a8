import type { Replay } from '../evidence/trace.js';
import type { Report, Reproduce, RuleResult } from './report-model.js';
import { curlScript } from './repro/curl-script.js';
import { planReplay } from './repro/plan.js';
import type { ReproSettings } from './repro/repro-settings.js';
import { type Reproduction, reproductionFile } from './repro/reproduction.js';
import { shellWord } from './shell-quote.js';

/**
 * What re-runs one rule exactly as this run did, built from the run's
 * resolved settings (not from what the user typed: a `.env` or a profile may
 * have supplied the target, and a fresh shell has neither). Holds no secret:
 * the control token and the partner Secret Key are named as variables only.
 */
export interface ReplaySettings {
  /** Absent: the bundled reference server. */
  target?: string;
  controlUrl?: string;
  /** The profile as `--profile` takes it again: a bundled profile's name, else a path relative to the run's directory. */
  profileFile?: string;
  seed: number;
  numRuns: number;
  /** Only when not the default. */
  timeoutMs?: number;
  allowLiveOrders: boolean;
  /** Glob of check files relative to the run's directory, only when not the bundled suites. */
  suites?: string;
  /** The Access Key ID (not a secret) of a partner-mode run. */
  partnerAccessKeyId?: string;
}

const SECRET_VARIABLES = {
  control: 'CONTROL_TOKEN',
  partnerSecret: 'PARTNER_SECRET_KEY',
} as const;

/**
 * The package's command: what `npx` runs in the suite's checkout or wherever
 * its package is installed (no absolute path of the machine that ran it).
 */
const PACKAGE_COMMAND = 'npx partner-ordering-conformance';

/**
 * The command that re-runs the run (or, with `only`, some rules of it):
 * every non-secret setting as a flag, the secrets as `"$VARIABLE"`, the
 * package's command name instead of any path of the suite, so it works
 * pasted into a fresh shell wherever the suite is installed.
 */
export function replayBase(replay: ReplaySettings): string {
  const env: string[] = [];
  if (replay.controlUrl && replay.target)
    env.push(`${SECRET_VARIABLES.control}="$${SECRET_VARIABLES.control}"`);
  if (replay.partnerAccessKeyId) {
    env.push(`PARTNER_ACCESS_KEY_ID=${shellWord(replay.partnerAccessKeyId)}`);
    env.push(`${SECRET_VARIABLES.partnerSecret}="$${SECRET_VARIABLES.partnerSecret}"`);
  }
  const flags: string[] = [];
  if (replay.target) flags.push('--target', shellWord(replay.target));
  if (replay.target && replay.controlUrl) flags.push('--control-url', shellWord(replay.controlUrl));
  if (replay.profileFile) flags.push('--profile', shellWord(replay.profileFile));
  if (replay.suites) flags.push('--suites', shellWord(replay.suites));
  if (replay.timeoutMs !== undefined) flags.push('--timeout', String(replay.timeoutMs));
  if (replay.allowLiveOrders) flags.push('--allow-live-orders');
  // `=` form: a negative seed is never read as a flag, whatever parses it.
  flags.push(`--seed=${replay.seed}`, '--num-runs', String(replay.numRuns));
  return [...env, PACKAGE_COMMAND, ...flags].join(' ');
}

/** The base command narrowed to some rules. */
export function withOnly(base: string, only: string | undefined): string {
  return only ? `${base} --only ${shellWord(only)}` : base;
}

const NEEDS_REPRODUCTION = new Set(['failed', 'warning', 'error']);

/**
 * Adds `reproduce` to every failed, warning and error result: the command
 * that re-runs that rule alone, and, when the check's sequence can be
 * replayed, its replay plan (planned here, once) as the curl form and as
 * `repro/<RULE>.mjs` (warnings: `repro/warnings/`). One curl writer: a
 * result with no sequence to replay has no curl form. Answers the report and
 * the reproductions to write.
 */
export function attachReproduction(
  report: Report,
  base: string,
  standalone?: { settings: ReproSettings; replays: ReadonlyMap<string, Replay> },
): { report: Report; reproductions: Reproduction[] } {
  const reproductions: Reproduction[] = [];
  const results = report.results.map((result): RuleResult => {
    if (!NEEDS_REPRODUCTION.has(result.verdict)) return result;
    const replay = standalone?.replays.get(result.rule_id);
    const plan =
      standalone && replay && replay.trace.steps.length > 0
        ? planReplay(result, replay, standalone.settings)
        : undefined;
    const file = plan ? reproductionFile(result) : undefined;
    const curl = plan ? curlScript(plan) : [];
    if (plan && file) reproductions.push({ plan, file, curl });
    const reproduce: Reproduce = {
      command: withOnly(base, result.rule_id),
      curl,
      ...(file ? { file } : {}),
    };
    return { ...result, reproduce };
  });
  return { report: { ...report, replay_command: base, results }, reproductions };
}
