import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config/config-error.js';
import { VERDICTS } from '../verdict/words.js';
import type { Changes, RuleResult, VerdictChange } from './report-model.js';

/** What `--compare` needs of a previous report.json: the contract's fields only, so any version reads. */
const PreviousReportSchema = z.object({
  target: z.string(),
  started_at: z.string(),
  results: z.array(
    z.object({ rule_id: z.string(), title: z.string().optional(), verdict: z.enum(VERDICTS) }),
  ),
});

export type PreviousReport = z.output<typeof PreviousReportSchema>;

/** Reads and checks the previous report before the run starts: a bad file is a configuration error. */
export function loadPreviousReport(path: string, setting = '--compare'): PreviousReport {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      setting,
      error instanceof SyntaxError ? `${path} is not JSON` : `${path} cannot be read`,
    );
  }
  const parsed = PreviousReportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(top level)';
    throw new ConfigError(
      setting,
      `${path} is not a conformance report.json (${where}: ${issue?.message})`,
    );
  }
  return parsed.data;
}

/** Rules whose verdict differs between the two runs, in the current catalogue's order, then removed ones. */
export function compareReports(
  previous: PreviousReport,
  current: readonly RuleResult[],
  comparedTo: string,
): Changes {
  const before = new Map(previous.results.map((result) => [result.rule_id, result]));
  const changed: VerdictChange[] = [];
  for (const result of current) {
    const old = before.get(result.rule_id);
    if (old?.verdict !== result.verdict) {
      changed.push({
        rule_id: result.rule_id,
        title: result.title,
        from: old?.verdict ?? null,
        to: result.verdict,
      });
    }
    before.delete(result.rule_id);
  }
  for (const old of before.values()) {
    changed.push({ rule_id: old.rule_id, title: old.title ?? '', from: old.verdict, to: null });
  }
  return {
    compared_to: comparedTo,
    previous_started_at: previous.started_at,
    previous_target: previous.target,
    changed,
  };
}

/** One line per change, for the terminal and summary.md. */
export function describeChange(change: VerdictChange): string {
  return `${change.rule_id}: ${change.from ?? '(new)'} -> ${change.to ?? '(gone)'}`;
}
