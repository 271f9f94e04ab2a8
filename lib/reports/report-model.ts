import type { ClientArea } from '../../rules/client/index.js';
import type { Area, Level } from '../../rules/index.js';
import type { Counterexample } from '../check/check-outcome.js';
import type { Exchange } from '../evidence/exchange.js';
import type { Coverage, Outcome, RunExitCode, Verdict } from '../verdict/words.js';
import type { Violation } from '../violations/violation.js';

/**
 * `report.json`, the run interface of the target contract (section 4). The
 * fields the contract names are never removed or renamed; everything else is
 * an addition, documented in reports/README.md.
 */
export interface Report {
  suite_version: string;
  /** Version of the target contract the verdicts follow. */
  contract_version: string;
  /** The target's origin. */
  target: string;
  target_info: TargetInfo;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** Replays every generated input: `--seed <seed>`. */
  seed: number;
  num_runs: number;
  /**
   * Addition: generated inputs per property as the run ran them
   * (`--num-runs`, capped with only a partner key); absent when no property ran.
   */
  cases_per_property?: { min: number; max: number };
  /** The `--only` selection; absent: every rule. */
  only?: string[];
  /** The process's exit code and why (section 4). */
  exit_code: RunExitCode;
  exit_reason: string;
  summary: Summary;
  coverage: { rules: number; checked: number; uncovered: number };
  results: RuleResult[];
  /** Harness errors no single rule owns (a check file that failed to load, an unhandled error). */
  run_errors: RunError[];
  /** With `--compare`: the rules whose verdict changed since that run. */
  changes?: Changes;
  /** Addition: the command that re-runs this run (no secret: variables only). */
  replay_command?: string;
  /** Addition, with `--waivers`: what the waivers file did. */
  waivers?: WaiverSummary;
  /** Addition, with `--history`: each rule's last verdicts, new failures, fixed and flaky rules. */
  history?: History;
  /** Addition, in partner mode: the partner key's traffic and its rate-limit floor (partner-pacing.ts). */
  partner_pacing?: PartnerPacing;
  /** Addition: the dialect probe that ran before the checks, and its exchanges. */
  dialect_probe?: DialectProbeReport;
  /**
   * Addition, in a client report (`client -- <command>`): the partner's
   * command, the situations played and every exchange of the client with the
   * sandbox, in order. Its results are the client rules.
   */
  client?: ClientRun;
}

/**
 * A client rule's own outcome (client-outcome.ts maps it onto verdicts, the
 * outcome and the exit code): `honoured`, `broken`, `not_exercised` (the
 * client never gave it a chance), or `error` (the grading failed, never the client).
 */
export type ClientOutcome = 'honoured' | 'broken' | 'not_exercised' | 'error';

/** What a client report adds: the command graded and what the sandbox did to it. */
export interface ClientRun {
  /** The command as given (its arguments are the user's own). */
  command: string[];
  /** The command's own exit code; null when it ended on a signal or could not be waited for. */
  exit_code: number | null;
  signal?: string;
  /** The run was interrupted (Ctrl-C) before the command ended on its own. */
  interrupted?: true;
  /** `--situations` as given again: `all`, `none` or the list. */
  situations_chosen: string;
  /** Every playing of a situation, in the order they were offered. */
  situations: ClientSituation[];
  /** Counts per client outcome (they sum to the number of client rules). */
  outcomes: Record<ClientOutcome, number>;
  /** The client's exchanges with the sandbox, in the order they arrived (ids as in the results' evidence). */
  exchanges: Exchange[];
  /** Exchanges beyond the report's cap, left out of `exchanges` (their judgement stands). */
  exchanges_omitted?: number;
}

interface ClientSituation {
  name: string;
  title: string;
  reworded: boolean;
  /** played: the client met it at `exchange`; pending: no chance came; armed: set, never reached; unplayable: see note. */
  state: 'played' | 'pending' | 'armed' | 'unplayable';
  exchange?: number;
  note?: string;
}

/** What a client rule's result adds: its own outcome word and how often the client had the chance. */
interface ClientResult {
  outcome: ClientOutcome;
  /** The occasions the client had to keep the rule, and how many it kept and broke. */
  occasions: number;
  honoured: number;
  broken: number;
  situations: string[];
}

/** What the dialect probe (lib/probe) did before the checks: it found no mismatch, or the run would have stopped. */
interface DialectProbeReport {
  requests: number;
  duration_ms: number;
  /** What it could not judge, and why (a refused key, a live key, a limit), or saw break the document. */
  notes?: string[];
  /**
   * What the profile shapes that the target was seen to take (`orderBody`,
   * `quoteBody`): a later 422 to a valid request of that shape is judged on
   * the check's rule, never as a profile gap.
   */
  seen?: string[];
  evidence: Exchange[];
}

export interface TargetInfo {
  api_base_url: string;
  /** The bundled reference server, started for this run. */
  embedded_reference: boolean;
  control_url?: string;
  /** Addition: `--target-name`, what the history compares runs under; absent: the origin. */
  target_name?: string;
  /** The profile in words (`config/acme.json`, `reference dialect`). */
  profile: string;
  /** The `--profile` value that selects it again, when one was given. */
  profile_option?: string;
  /** Control features the target announced plus `live_orders` when allowed. */
  capabilities: string[];
  /** Mode of the partner key, when one was used (never the key itself). */
  partner_key?: { access_key_id: string; mode: 'test' | 'live' };
}

/**
 * Counts per verdict: exactly the six of the contract, so they sum to the
 * number of rules; plus (additions) the MUST/SHOULD coverage and the
 * outcome they allow (see outcome.ts).
 */
export type Summary = Record<Verdict, number> & { coverage: Coverage; outcome: Outcome };

export interface RuleResult {
  rule_id: string;
  title: string;
  /** Section of the API document (`C2`, `C3`: of the target contract). */
  section: string;
  level: Level;
  verdict: Verdict;
  reason?: string;
  evidence?: Exchange[];
  /** Additions. */
  area: Area | ClientArea;
  /** No check implements this rule (verdict `not_verifiable`). */
  uncovered?: true;
  /** Capabilities the run lacked, for `not_verifiable`. */
  missing?: string[];
  violations?: Violation[];
  harness_error?: { code: string; message: string };
  counterexample?: Counterexample;
  /** Addition: generated inputs per property as run, for a rule checked by properties. */
  cases?: number;
  notes?: string[];
  /** The check file, relative to the suite's root. */
  file?: string;
  duration_ms?: number;
  /** Addition, on failed, warning and error results: what reproduces it. */
  reproduce?: Reproduce;
  /** Addition, with `--waivers`: the waiver on this rule (a waived failure stays `failed`). */
  waiver?: ResultWaiver;
  /** Addition: the sentence(s) of the document the rule rests on. */
  source?: RuleSource;
  /** Addition, in a client report: the client rule's own outcome (its verdict maps it). */
  client?: ClientResult;
}

/** What a rule rests on, as in the catalogue: `doc` is `api` (the API document) or `contract`. */
export interface RuleSource {
  doc: string;
  section: string;
  quote: string;
  rfc?: string;
  /** The target contract's reading (section 2) that fixes what the quoted API sentence means. */
  reading?: string;
}

/**
 * Re-runs one rule (`command`), and replays the check's whole sequence as a
 * POSIX sh script (`curl`, one line each; identifiers captured from the
 * answers into shell variables) and as `repro/<RULE>.mjs` (`file`, relative
 * to the report directory); secrets as environment variables only.
 */
export interface Reproduce {
  command: string;
  curl: string[];
  file?: string;
}

export interface RunError {
  /** The check file, or `vitest` for errors outside any file. */
  source: string;
  message: string;
  /** Rules whose verdict this error decided (`error`). */
  rule_ids?: string[];
}

export interface VerdictChange {
  rule_id: string;
  title: string;
  /** null: the rule was not in that report. */
  from: Verdict | null;
  /** null: the rule is no longer checked (retired or removed). */
  to: Verdict | null;
}

export interface Changes {
  compared_to: string;
  previous_started_at: string;
  previous_target: string;
  changed: VerdictChange[];
}

/**
 * What a run could verify and what it may claim: verified means the check
 * judged the rule, `passed` or `failed`, so a run that left a MUST rule
 * unverified is at best `partial` (lib/verdict/decide.ts).
 */
export type { Coverage, Outcome } from '../verdict/words.js';

/** report.json's `history` (addition, with `--history DIR`). */
export interface History {
  dir: string;
  /** Earlier runs found in the directory (all of them, whatever their target). */
  previous_runs: number;
  /** Of those, the runs with this run's suite version, profile and target name. */
  comparable_runs: number;
  /** What runs are compared under: `--target-name`, default the target's origin. */
  target_name: string;
  /** Per rule, oldest first, this run last: verdicts of the last comparable runs (null: not in that run). */
  rules: Record<string, { verdicts: (Verdict | null)[]; flaky?: true }>;
  /**
   * Regressions: failed now, and the latest comparable run that judged the
   * rule (passed, warning or failed) did not fail it; also when it failed
   * earlier in the window (a regression is never "flaky").
   */
  new_failures: string[];
  /** Failed in the latest comparable run, passes (or warns) now. */
  fixed: string[];
  /**
   * Changed verdict back and forth (two changes or more within the window)
   * while suite version, profile and target name stayed the same, and not a
   * regression now. The rule, in docs/nightly-ci.md, "History".
   */
  flaky: string[];
  /** History files that could not be read (named, never fatal). */
  unreadable?: string[];
}

/** What report.json records of a waiver on a result. */
export interface ResultWaiver {
  reason: string;
  expires: string;
  link?: string;
  /** false: it expired before the run, and no longer counts. */
  active: boolean;
  /**
   * true: a `--certify` run, which ignores waivers: the waiver
   * would have covered this failure, but the failure counts.
   */
  ignored_by_certify?: true;
}

/** report.json's `waivers` (addition): what the waivers file did this run. */
export interface WaiverSummary {
  file: string;
  /** Rules whose failure (or warning) a live waiver covered. Always empty with `--certify`. */
  applied: string[];
  /** With `--certify`, which ignores waivers: the failures (and warnings) a live waiver would have covered. */
  certify?: { would_cover: string[] };
  /** Waivers past their expiry: the failure counts again. */
  expired: { rule_id: string; expires: string; reason: string }[];
  /** Live waivers whose rule passed: the file can shrink. */
  unused: { rule_id: string; expires: string; reason: string }[];
}

/**
 * Addition to report.json in partner mode: what the one partner key sent
 * and the least time its documented limits (API document section 8) allow
 * for that traffic, beside how long the checks took. A ratio near 1 says
 * the run was as fast as the key allows; the rest was waiting.
 */
export interface PartnerPacing {
  reads: number;
  writes: number;
  token_requests: number;
  /** Per key and minute, as the API document states them. */
  limits: { reads: number; writes: number; token_requests: number };
  /** max(reads / 300, writes / 60, token requests / 20) minutes, in ms: the time at the documented rates. */
  floor_ms: number;
  /**
   * Addition: the least time any run could take for this traffic,
   * in ms: each limit's first minute is available at once, and with fixed
   * minute windows a window may reset just after a burst, so n requests of
   * a class with limit L need at least (ceil(n / L) - 2) minutes. A run
   * between this and `floor_ms` is fast, not a paradox.
   */
  least_ms?: number;
  /** The checks' wall time (report `duration_ms`) over the floor; absent when the floor is 0. */
  ratio?: number;
}
