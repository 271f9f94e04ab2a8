import type { Changes, Report, RuleResult, RunError, TargetInfo } from './report-model.js';
import { CONTRACT_VERSION, suiteVersion } from './suite-version.js';
import { summarize } from './summary.js';

export interface ReportInput {
  target: string;
  targetInfo: TargetInfo;
  startedAt: Date;
  finishedAt: Date;
  seed: number;
  numRuns: number;
  only: readonly string[];
  results: RuleResult[];
  runErrors: RunError[];
  exit: { code: 0 | 1 | 2 | 3; reason: string };
  changes?: Changes;
}

/** Assembles report.json's object (target contract, section 4, plus documented additions). */
export function buildReport(input: ReportInput): Report {
  // A rule is checked when some check file holds its check (even if --only skipped it).
  const checked = input.results.filter((r) => r.file !== undefined).length;
  return {
    suite_version: suiteVersion(),
    contract_version: CONTRACT_VERSION,
    target: input.target,
    target_info: input.targetInfo,
    started_at: input.startedAt.toISOString(),
    finished_at: input.finishedAt.toISOString(),
    duration_ms: input.finishedAt.getTime() - input.startedAt.getTime(),
    seed: input.seed,
    num_runs: input.numRuns,
    ...(input.only.length ? { only: [...input.only] } : {}),
    exit_code: input.exit.code,
    exit_reason: input.exit.reason,
    summary: summarize(input.results, input.runErrors),
    coverage: { rules: input.results.length, checked, uncovered: input.results.length - checked },
    results: input.results,
    run_errors: input.runErrors,
    ...(input.changes ? { changes: input.changes } : {}),
  };
}
