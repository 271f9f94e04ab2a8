import { SITUATIONS } from '../../rules/client/index.js';
import type { Exchange } from '../evidence/exchange.js';
import type { ClientGrade } from '../grading/grade.js';
import type { Play } from '../sandbox/plan.js';
import { CLIENT_OUTCOMES, clientExitDecision, verdictOfClient } from '../verdict/client.js';
import { summarize } from '../verdict/decide.js';
import type { ClientOutcome, Report, RuleResult, RunError, TargetInfo } from './report-model.js';
import { CONTRACT_VERSION, suiteVersion } from './suite-version.js';

/** A report keeps this many of the client's exchanges at most; the rest are counted, their judgement stands. */
const MAX_EXCHANGES = 5_000;

export interface ClientReportInput {
  /** The sandbox's origin (the bundled reference, or the target behind the layer). */
  target: string;
  targetInfo: TargetInfo;
  startedAt: Date;
  finishedAt: Date;
  command: string[];
  exitCode: number | null;
  signal?: string;
  interrupted: boolean;
  situationsChosen: string;
  plays: readonly Play[];
  grades: readonly ClientGrade[];
  /** Every exchange of the client, redacted (lib/sandbox/redacted.ts). */
  exchanges: Exchange[];
  runErrors: RunError[];
}

/**
 * The client report: report.json's shape (target contract, section 4, and
 * its additions), whose results are the client rules. Each result's verdict
 * maps its client outcome (client-outcome.ts), so every report format, the
 * safety net and the exit code read it as they read a target's.
 */
export function buildClientReport(input: ClientReportInput): Report {
  const byId = new Map(input.exchanges.map((ex) => [ex.id, ex]));
  const results: RuleResult[] = input.grades.map((g) => {
    const evidence = g.exchanges.map((id) => byId.get(id)).filter((ex) => ex !== undefined);
    return {
      rule_id: g.rule.id,
      title: g.rule.title,
      section: g.rule.section,
      level: g.rule.level,
      verdict: verdictOfClient(g.outcome, g.rule.level),
      reason: g.reason,
      ...(evidence.length ? { evidence } : {}),
      area: g.rule.area,
      source: {
        doc: g.rule.source.doc,
        section: g.rule.source.section,
        quote: g.rule.source.quote.join(' … '),
      },
      client: {
        outcome: g.outcome,
        occasions: g.occasions,
        honoured: g.honoured,
        broken: g.broken,
        situations: [...g.rule.situations],
      },
    };
  });
  const exit = clientExitDecision(results, input.runErrors, input.interrupted);
  const outcomes = Object.fromEntries(CLIENT_OUTCOMES.map((o) => [o, 0])) as Record<
    ClientOutcome,
    number
  >;
  for (const g of input.grades) outcomes[g.outcome] += 1;
  const kept = input.exchanges.slice(0, MAX_EXCHANGES);
  return {
    suite_version: suiteVersion(),
    contract_version: CONTRACT_VERSION,
    target: input.target,
    target_info: input.targetInfo,
    started_at: input.startedAt.toISOString(),
    finished_at: input.finishedAt.toISOString(),
    duration_ms: input.finishedAt.getTime() - input.startedAt.getTime(),
    // No generated input: nothing to replay by seed.
    seed: 0,
    num_runs: 0,
    exit_code: exit.code,
    exit_reason: exit.reason,
    summary: summarize(results, input.runErrors),
    coverage: { rules: results.length, checked: results.length, uncovered: 0 },
    results,
    run_errors: input.runErrors,
    client: {
      command: input.command,
      exit_code: input.exitCode,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.interrupted ? { interrupted: true as const } : {}),
      situations_chosen: input.situationsChosen,
      situations: input.plays.map((p) => ({
        name: p.situation,
        title: SITUATIONS[p.situation].title,
        reworded: p.reworded,
        state: p.state,
        ...(p.exchange === undefined ? {} : { exchange: p.exchange }),
        ...(p.note ? { note: p.note } : {}),
      })),
      outcomes,
      exchanges: kept,
      ...(input.exchanges.length > kept.length
        ? { exchanges_omitted: input.exchanges.length - kept.length }
        : {}),
    },
  };
}
