import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { VERDICTS, type Verdict } from '../check/verdict.js';
import type { History, Report } from './report-model.js';

/** How many runs (this one included) the trend shows per rule. */
export const HISTORY_LENGTH = 10;

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
