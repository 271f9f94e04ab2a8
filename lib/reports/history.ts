import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { VERDICTS, type Verdict } from '../verdict/words.js';
import type { History, Report } from './report-model.js';

/** How many runs (this one included) the trend shows per rule. */
const HISTORY_LENGTH = 10;

const StoredRun = z.object({
  suite_version: z.string(),
  target: z.string(),
  started_at: z.string(),
  target_info: z.object({ profile: z.string(), target_name: z.string().optional() }).passthrough(),
  results: z.array(z.object({ rule_id: z.string(), verdict: z.enum(VERDICTS) }).passthrough()),
});
/** What the trend reads of an earlier run's report.json. */
export interface PastRun {
  suite_version: string;
  target: string;
  started_at: string;
  target_info: { profile: string; target_name?: string | undefined };
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

/** What history compares runs under: `--target-name`, else the origin (a new port keeps a named history). */
function historyKey(run: Pick<PastRun, 'target' | 'target_info'>): string {
  return run.target_info.target_name ?? run.target;
}

/** A verdict on the target: `skipped` (left out) and `not_verifiable` (not judged) say nothing of it. */
const JUDGED: ReadonlySet<Verdict> = new Set(['passed', 'warning', 'failed']);

/**
 * The trend of every rule, by the rule in docs/nightly-ci.md ("History").
 * Only runs of the same suite version, profile and target name are
 * compared: a verdict that changed with them has a cause. Of the verdicts
 * that judged the target (passed, warning, failed):
 * - a regression: failed now, and the latest earlier judged verdict was not
 *   failed, whatever came before it;
 * - fixed: failed in the latest earlier judged verdict, passed or warning now;
 * - flaky: two changes or more within the window (it went and came back)
 *   and not a regression now.
 */
export function computeHistory(
  report: Report,
  earlier: readonly PastRun[],
  dir: string,
  unreadable: readonly string[] = [],
): History {
  const key = historyKey(report);
  const comparable = earlier.filter(
    (run) =>
      run.suite_version === report.suite_version &&
      historyKey(run) === key &&
      run.target_info.profile === report.target_info.profile &&
      run.started_at !== report.started_at,
  );
  const window = comparable.slice(-(HISTORY_LENGTH - 1));
  const maps = window.map((run) => new Map(run.results.map((r) => [r.rule_id, r.verdict])));
  const rules: History['rules'] = {};
  const newFailures: string[] = [];
  const fixed: string[] = [];
  const flaky: string[] = [];
  for (const result of report.results) {
    const verdicts = [...maps.map((m) => m.get(result.rule_id) ?? null), result.verdict];
    const judged = verdicts.filter((v): v is Verdict => v !== null && JUDGED.has(v));
    let changes = 0;
    for (let i = 1; i < judged.length; i++) if (judged[i] !== judged[i - 1]) changes += 1;
    const now = JUDGED.has(result.verdict) ? result.verdict : undefined;
    const before = now ? judged.at(-2) : undefined;
    const regression = now === 'failed' && before !== undefined && before !== 'failed';
    const isFlaky = changes >= 2 && !regression;
    rules[result.rule_id] = { verdicts, ...(isFlaky ? { flaky: true as const } : {}) };
    if (isFlaky) flaky.push(result.rule_id);
    if (regression) newFailures.push(result.rule_id);
    if (before === 'failed' && (now === 'passed' || now === 'warning')) fixed.push(result.rule_id);
  }
  return {
    dir,
    previous_runs: earlier.length,
    comparable_runs: comparable.length,
    target_name: key,
    rules,
    new_failures: newFailures,
    fixed,
    flaky,
    ...(unreadable.length ? { unreadable: [...unreadable] } : {}),
  };
}

/**
 * Keeps this run's report.json (the file at `reportJson`, copied as it is: never read into
 * memory) in the history directory, named by its start (sorts by time).
 */
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
  await copyFile(reportJson, join(dir, name));
  return join(dir, name);
}
