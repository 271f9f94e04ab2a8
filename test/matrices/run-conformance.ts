import { isSelected } from '../../lib/config/only.js';
import { loadSettings } from '../../lib/config/settings.js';
import { prepareTarget } from '../../lib/prepare/prepare-target.js';
import { carryProbe, probeDialect } from '../../lib/probe/dialect-probe.js';
import { mismatchLine } from '../../lib/probe/judge.js';
import type { CollectedRun } from '../../lib/runner/collected.js';
import { exitDecision } from '../../lib/verdict/decide.js';
import { mergeResults } from '../../lib/verdict/rule-results.js';
import { activeRules } from '../../rules/index.js';
import { checksGlob, ROOT } from './area-checks.js';
import type { SuiteTarget } from './run-targets.js';

export interface AreaRun {
  area: string;
  exitCode: number | null;
  /** Verdict of every rule of the area, by rule id. */
  verdicts: Record<string, string>;
  /** Rule ids whose verdict is `failed`, sorted. */
  failed: string[];
  durationMs: number;
  /** Set when the run could not decide (exit 2): why, in a few lines. */
  problem?: string;
}

export interface ConformanceTarget {
  origin: string;
  controlToken: string;
}

/**
 * What one run covers: the checks of one area, of some rules (`'IDEM-02'`,
 * `'AUTH-05,KEY-06'`, as `--only` takes them), or (`'ALL'`) the whole bundled suite.
 */
export type RunScope = string | 'ALL';

/** A target of the matrix, ready for runSuitesOnTargets, with the selection its results are read with. */
export interface PreparedRun {
  suiteTarget: SuiteTarget;
  area: RunScope;
  only: string[];
}

/**
 * Settings and RunConfig of one run, exactly as the CLI makes them from these
 * flags (`--target … --control-url … --only AREA --suites … --seed …
 * --allow-live-orders`), the control token in the environment only. `cwd`
 * should be an empty directory, so that a developer's `.env` cannot change
 * the run.
 */
export async function prepareRun(
  name: string,
  target: ConformanceTarget,
  area: RunScope,
  seed: number,
  cwd: string,
  /** More flags, e.g. `--profile FILE`. */
  extraArgv: readonly string[] = [],
): Promise<PreparedRun> {
  const argv = [
    '--target',
    target.origin,
    '--control-url',
    `${target.origin}/__control`,
    ...(area === 'ALL' ? [] : ['--only', area, '--suites', checksGlob(area.split(','))]),
    '--seed',
    String(seed),
    // The reference places nothing real; probation and mode checks need live orders.
    '--allow-live-orders',
    ...extraArgv,
  ];
  const loaded = loadSettings({
    argv,
    env: { CONTROL_TOKEN: target.controlToken },
    cwd,
    rules: activeRules,
  });
  if (loaded.help) throw new Error('unexpected --help');
  const { settings } = loaded;
  const prepared = await prepareTarget(settings);
  return {
    suiteTarget: { name, include: settings.suites, runConfig: prepared.runConfig },
    area,
    only: settings.only,
  };
}

/**
 * The dialect probe, before any check, as the CLI runs it: the mismatch
 * lines when it stops the run (exit 2, no check runs), else undefined and
 * what it found handed to the run's checks (what the target was seen to
 * take, the partner key's requests).
 */
export async function probeAsTheCli(prepared: PreparedRun): Promise<string[] | undefined> {
  const probe = await probeDialect(prepared.suiteTarget.runConfig);
  if (probe.mismatches.length > 0) return probe.mismatches.map(mismatchLine);
  carryProbe(prepared.suiteTarget.runConfig, probe);
  return undefined;
}

/** A run the dialect probe stopped before any check (exit 2), as the CLI would report it. */
export function stoppedRun(area: RunScope, problem: string): AreaRun {
  return { area, exitCode: 2, verdicts: {}, failed: [], durationMs: 0, problem };
}

/**
 * What the CLI would have reported for the run: the verdict of every rule
 * (mergeResults) and the exit code (section 4 of the target contract),
 * limited to the area's rules.
 */
export function readRun(prepared: PreparedRun, run: CollectedRun, durationMs: number): AreaRun {
  const { area, only } = prepared;
  const { results, runErrors } = mergeResults({ rules: activeRules, only, run, root: ROOT });
  const exit = exitDecision(results, runErrors);
  const inArea = results.filter((r) => area === 'ALL' || isSelected(only, r.rule_id));
  const problem = [
    ...runErrors.map((e) => `${e.source}: ${e.message}`),
    ...inArea.filter((r) => r.verdict === 'error').map((r) => `${r.rule_id}: ${r.reason ?? ''}`),
  ]
    .slice(0, 12)
    .join('\n');
  return {
    area,
    exitCode: exit.code,
    verdicts: Object.fromEntries(inArea.map((r) => [r.rule_id, r.verdict])),
    failed: inArea
      .filter((r) => r.verdict === 'failed')
      .map((r) => r.rule_id)
      .sort(),
    durationMs,
    ...(exit.code === 2 ? { problem: `${exit.reason}\n${problem}` } : {}),
  };
}
