import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { allureRuleId } from './allure-id.js';
import { ALLURE_STATUS } from './allure-status.js';
import { areaTitle } from './area-title.js';
import type { Report, RuleResult } from './report-model.js';

/**
 * Completes allure-results to one result per rule, as junit.xml has: a run
 * that was interrupted (or a rule no check implements, or one left out by
 * `--only`) leaves rules allure-vitest never saw. Each gets a result with
 * its verdict and reason, so Allure counts what report.json counts. Answers
 * how many results were added.
 */
export async function completeAllureResults(report: Report, dir: string): Promise<number> {
  const present = new Set<string>();
  let entries: string[] = [];
  // Read synchronously (a run's ~200 small files): each through the thread pool took ~60 ms of
  // the run's end. Nothing else is under way by then.
  try {
    entries = readdirSync(dir);
  } catch {
    // No results at all (the run ended before any check): every rule is written below.
  }
  for (const entry of entries) {
    if (!entry.endsWith('-result.json')) continue;
    try {
      const parsed = JSON.parse(readFileSync(join(dir, entry), 'utf8')) as { name?: unknown };
      if (typeof parsed.name === 'string') present.add(parsed.name.split(' ')[0] ?? '');
    } catch {
      // Not ours to judge; a broken result file does not stop the others.
    }
  }
  const missing = report.results.filter((result) => !present.has(result.rule_id));
  if (missing.length === 0) return 0;
  await mkdir(dir, { recursive: true });
  const at = Date.parse(report.finished_at);
  for (const result of missing) {
    const uuid = randomUUID();
    await writeFile(join(dir, `${uuid}-result.json`), JSON.stringify(resultOf(result, uuid, at)));
  }
  return missing.length;
}

function resultOf(result: RuleResult, uuid: string, at: number): Record<string, unknown> {
  const name = `${result.rule_id} ${result.title}`;
  const id = allureRuleId(name);
  return {
    uuid,
    name,
    fullName: name,
    historyId: id,
    testCaseId: id,
    status: ALLURE_STATUS[result.verdict],
    statusDetails: result.reason ? { message: result.reason } : {},
    stage: 'finished',
    steps: [],
    attachments: [],
    parameters: [{ name: 'section', value: result.section }],
    labels: [
      { name: 'epic', value: areaTitle(result.area) },
      { name: 'feature', value: result.area },
      { name: 'story', value: result.rule_id },
      { name: 'tag', value: result.level },
      { name: 'tag', value: result.verdict },
    ],
    links: [],
    start: at,
    stop: at,
  };
}
