import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { VERDICTS, type Verdict } from '../check/verdict.js';
import type { Report } from './report-model.js';

/** How many runs (this one included) the trend shows per rule. */
export const HISTORY_LENGTH = 10;

/** report.json's `history` (addition, with `--history DIR`). */
export interface History {
  dir: string;
  /** Earlier runs found in the directory (all of them, whatever their target). */
  previous_runs: number;
  /** Of those, the runs with this run's suite version, profile and target. */
  comparable_runs: number;
  /** Per rule, oldest first, this run last: verdicts of the last comparable runs (null: not in that run). */
  rules: Record<string, { verdicts: (Verdict | null)[]; flaky?: true }>;
  /** Failed now, did not fail in the latest comparable run. */
  new_failures: string[];
  /** Failed in the latest comparable run, passes (or warns) now. */
  fixed: string[];
  /** Changed verdict back and forth while suite version, profile and target stayed the same. */
  flaky: string[];
  /** History files that could not be read (named, never fatal). */
  unreadable?: string[];
}

const StoredRun = z.object({
  suite_version: z.string(),
  target: z.string(),
  started_at: z.string(),
  target_info: z.object({ profile: z.string() }).passthrough(),
  results: z.array(z.object({ rule_id: z.string(), verdict: z.enum(VERDICTS) }).passthrough()),
});
/** What the trend reads of an earlier run's report.json. */
export interface PastRun {
  suite_version: string;
  target: string;
  started_at: string;
  target_info: { profile: string };
  results: readonly { rule_id: string; verdict: Verdict }[];
}
type StoredRun = PastRun;

/** Earlier runs from the history directory, oldest first. A missing directory is an empty history. */
export async function loadHistory(
  dir: string,
): Promise<{ runs: StoredRun[]; unreadable: string[] }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return { runs: [], unreadable: [] };
  }
  const runs: StoredRun[] = [];
  const unreadable: string[] = [];
  for (const name of names) {
    try {
      const parsed = StoredRun.safeParse(JSON.parse(await readFile(join(dir, name), 'utf8')));
      if (parsed.success) runs.push(parsed.data);
      else unreadable.push(name);
    } catch {
      unreadable.push(name);
    }
  }
  runs.sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0));
  return { runs, unreadable };
}

/**
 * The trend of every rule. Only runs of the same suite version, profile and
 * target are compared: a verdict that changed with them has a cause. A
 * single change is a new failure or a fix (a regression is not flakiness);
 * a verdict that changed twice or more within the window, with nothing of
 * the run changing, is flaky. `skipped` (a rule left out by `--only`) is no
 * verdict on the target and never counts as a change.
 */
export function computeHistory(
  report: Report,
  earlier: readonly PastRun[],
  dir: string,
  unreadable: readonly string[] = [],
): History {
  const comparable = earlier.filter(
    (run) =>
      run.suite_version === report.suite_version &&
      run.target === report.target &&
      run.target_info.profile === report.target_info.profile &&
      run.started_at !== report.started_at,
  );
  const window = comparable.slice(-(HISTORY_LENGTH - 1));
  const maps = window.map((run) => new Map(run.results.map((r) => [r.rule_id, r.verdict])));
  const latest = maps.at(-1);
  const rules: History['rules'] = {};
  const newFailures: string[] = [];
  const fixed: string[] = [];
  const flaky: string[] = [];
  for (const result of report.results) {
    const verdicts = [...maps.map((m) => m.get(result.rule_id) ?? null), result.verdict];
    const judged = verdicts.filter((v): v is Verdict => v !== null && v !== 'skipped');
    let changes = 0;
    for (let i = 1; i < judged.length; i++) if (judged[i] !== judged[i - 1]) changes += 1;
    const isFlaky = changes >= 2;
    rules[result.rule_id] = { verdicts, ...(isFlaky ? { flaky: true as const } : {}) };
    if (isFlaky) flaky.push(result.rule_id);
    const before = latest?.get(result.rule_id);
    if (before === undefined || before === 'skipped' || result.verdict === 'skipped') continue;
    if (result.verdict === 'failed' && before !== 'failed') newFailures.push(result.rule_id);
    if (before === 'failed' && (result.verdict === 'passed' || result.verdict === 'warning'))
      fixed.push(result.rule_id);
  }
  return {
    dir,
    previous_runs: earlier.length,
    comparable_runs: comparable.length,
    rules,
    new_failures: newFailures,
    fixed,
    flaky,
    ...(unreadable.length ? { unreadable: [...unreadable] } : {}),
  };
}

/** Keeps this run's report.json in the history directory, named by its start (sorts by time). */
export async function storeInHistory(
  dir: string,
  reportJson: string,
  startedAt: string,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = startedAt.replace(/:/g, '-');
  const existing = new Set(await readdir(dir));
  let name = `${stamp}.json`;
  for (let n = 2; existing.has(name); n += 1) name = `${stamp}-${n}.json`;
  await writeFile(join(dir, name), reportJson);
  return join(dir, name);
}
