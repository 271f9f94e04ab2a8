import type { RunDecision } from '../verdict/decide.js';
import type { Changes, Report, RuleResult, RunError, TargetInfo } from './report-model.js';
import { CONTRACT_VERSION, suiteVersion } from './suite-version.js';

export interface ReportInput {
  target: string;
  targetInfo: TargetInfo;
  startedAt: Date;
  finishedAt: Date;
  seed: number;
  numRuns: number;
  only: readonly string[];
  /** What the verdict module decided of the run's results (lib/verdict/decide.ts). */
  decision: RunDecision;
  runErrors: RunError[];
  changes?: Changes;
}

/** Assembles report.json's object (target contract, section 4, plus documented additions). */
export function buildReport(input: ReportInput): Report {
  const { results, summary, exit, waivers } = input.decision;
  // A rule is checked when some check file holds its check (even if --only skipped it).
  const checked = results.filter((r) => r.file !== undefined).length;
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
    ...casesPerProperty(results),
    ...(input.only.length ? { only: [...input.only] } : {}),
    exit_code: exit.code,
    exit_reason: exit.reason,
    summary,
    coverage: { rules: results.length, checked, uncovered: results.length - checked },
    results,
    run_errors: input.runErrors,
    ...(input.changes ? { changes: input.changes } : {}),
    ...(waivers ? { waivers } : {}),
  };
}

/** The cases per property as run, from the rules checked by properties. */
function casesPerProperty(results: readonly RuleResult[]): Pick<Report, 'cases_per_property'> {
  const cases = results.map((r) => r.cases).filter((n): n is number => n !== undefined);
  if (cases.length === 0) return {};
  return { cases_per_property: { min: Math.min(...cases), max: Math.max(...cases) } };
}

/** "100 cases per property", or what ran when it differs from --num-runs: "3 to 10 cases per property as run (--num-runs 100; per rule in report.json)". */
export function casesLine(report: Pick<Report, 'num_runs' | 'cases_per_property'>): string {
  const c = report.cases_per_property;
  if (!c || (c.min === report.num_runs && c.max === report.num_runs))
    return `${report.num_runs} cases per property`;
  const ran = c.min === c.max ? `${c.max}` : `${c.min} to ${c.max}`;
  return `${ran} cases per property as run (--num-runs ${report.num_runs}${c.min === c.max ? '' : '; per rule in report.json'})`;
}
