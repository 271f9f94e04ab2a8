import { markdownCode, markdownText } from './markdown-text.js';
import type { Report, RuleResult } from './report-model.js';
import { waiverMark } from './waiver-mark.js';

/** summary.md's parts for waivers and history (certifiers and nightly runs). */
export function waiverMarkdown(result: RuleResult): string {
  return markdownText(waiverMark(result));
}

export function workflowMarkdown(report: Report): string[] {
  const out: string[] = [];
  const w = report.waivers;
  if (w) {
    out.push('## Waivers', '');
    out.push(
      w.certify
        ? `--certify ignores waivers: every failure counts. A waiver would have covered: ${ids(w.certify.would_cover)}.`
        : `Applied: ${ids(w.applied)}.`,
    );
    for (const x of w.expired)
      out.push(
        `- expired: **${x.rule_id}** (${x.expires}): ${markdownText(x.reason)}; the failure counts again`,
      );
    for (const x of w.unused)
      out.push(
        `- unused: **${x.rule_id}** (until ${x.expires}): the rule passed; remove the waiver`,
      );
    out.push('');
  }
  const h = report.history;
  if (h) {
    out.push(
      `## History (${h.comparable_runs} comparable earlier runs of ${markdownCode(h.target_name ?? report.target)})`,
      '',
    );
    out.push(`- Regressions: ${ids(h.new_failures)}`);
    out.push(`- Fixed: ${ids(h.fixed)}`);
    out.push(`- Flaky: ${ids(h.flaky)}`, '');
    const rows = report.results
      .map((r) => [r.rule_id, h.rules[r.rule_id]] as const)
      .filter(([, trend]) => trend?.verdicts.some((v) => v !== null && v !== 'skipped'));
    out.push(
      '<details><summary>Last verdicts per rule (oldest first)</summary>',
      '',
      '| rule | verdicts | |',
      '|---|---|---|',
      ...rows.map(
        ([id, trend]) =>
          `| ${id} | ${(trend?.verdicts ?? []).map((v) => v ?? '–').join(' → ')} | ${trend?.flaky ? 'flaky' : ''} |`,
      ),
      '',
      '</details>',
      '',
    );
  }
  return out;
}

function ids(list: readonly string[]): string {
  return list.length ? list.join(', ') : 'none';
}
