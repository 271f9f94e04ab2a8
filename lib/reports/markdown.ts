import { coverageFigure } from '../verdict/decide.js';
import { VERDICTS } from '../verdict/words.js';
import { casesLine } from './build-report.js';
import { renderClientMarkdown } from './client-markdown.js';
import { describeChange } from './compare.js';
import { markdownCode, markdownText } from './markdown-text.js';
import { waiverMarkdown, workflowMarkdown } from './markdown-workflow.js';
import { outcomeTitle, uncheckedKindsNote } from './outcome.js';
import { pacingLine } from './partner-pacing.js';
import { replayCommand } from './replay-command.js';
import type { Report, RuleResult } from './report-model.js';
import { reproduceLines } from './reproduce-markdown.js';
import { sourceMarkdown } from './source-lines.js';
import { unverifiedGroups } from './unverified.js';

const LIST_LIMIT = 50;

/**
 * `summary.md` for CI job pages (GitHub's `$GITHUB_STEP_SUMMARY`, GitLab
 * notes): the outcome first, then what needs a person's attention. The full
 * story is in report.html.
 */
export function renderMarkdown(report: Report): string {
  if (report.client) return renderClientMarkdown(report);
  const out: string[] = [];
  out.push(`# Conformance: ${headline(report)}`, '');
  out.push(
    `Target ${markdownCode(report.target)}${report.target_info.embedded_reference ? ' (bundled reference server)' : ''}, profile ${markdownText(report.target_info.profile)}.`,
  );
  out.push(
    `Suite ${report.suite_version}, contract ${report.contract_version}, seed \`${report.seed}\`, ${casesLine(report)}, ${(report.duration_ms / 1000).toFixed(1)} s.`,
  );
  if (report.only) out.push(`Only: ${markdownText(report.only.join(', '))}.`);
  if (report.partner_pacing)
    out.push(`${capitalised(pacingLine(report.partner_pacing, report.duration_ms))}.`);
  out.push('', `Exit code ${report.exit_code}: ${markdownText(report.exit_reason)}.`, '');
  out.push(`| ${VERDICTS.join(' | ')} |`, `|${VERDICTS.map(() => '---:').join('|')}|`);
  out.push(`| ${VERDICTS.map((v) => report.summary[v]).join(' | ')} |`, '');
  out.push(
    `Coverage: ${report.coverage.checked} of ${report.coverage.rules} rules have a check; ${report.coverage.uncovered} uncovered. Outcome \`${report.summary.outcome}\`: ${coverageFigure(report.summary.coverage)}, ${report.summary.coverage.should_verified} of ${report.summary.coverage.should_total} SHOULD rules. ${capitalised(uncheckedKindsNote())}.`,
    '',
  );

  section(
    out,
    'MUST failures',
    report.results.filter((r) => r.verdict === 'failed'),
    (r) => line(r, report),
  );
  section(
    out,
    'Errors (the suite, not the target)',
    report.results.filter((r) => r.verdict === 'error'),
    (r) => line(r, report),
  );
  if (report.run_errors.length) {
    out.push('## Run errors', '');
    for (const e of report.run_errors)
      out.push(`- ${markdownCode(e.source)}: ${markdownText(e.message)}`);
    out.push('');
  }
  section(
    out,
    'Warnings (SHOULD and DIALECT)',
    report.results.filter((r) => r.verdict === 'warning'),
    (r) => line(r, report),
  );

  const groups = unverifiedGroups(report);
  if (groups.length) {
    out.push('## Not verifiable (and skipped): what would verify them', '');
    for (const g of groups)
      out.push(
        `- ${g.rule_ids.length} ${g.rule_ids.length === 1 ? 'rule needs' : 'rules need'} ${markdownText(g.need)}${g.fix ? `: ${markdownText(g.fix)}` : ''}`,
      );
    out.push('');
  }
  if (report.changes) {
    out.push(`## Changes since ${report.changes.previous_started_at}`, '');
    if (report.changes.changed.length === 0) out.push('No verdict changed.');
    for (const change of report.changes.changed)
      out.push(`- ${markdownText(describeChange(change))} (${markdownText(change.title)})`);
    out.push('');
  }
  out.push(...workflowMarkdown(report));
  out.push(
    'Reports: `report.html`, `report.json`, `junit.xml`, `exchanges.har`, `manifest.json`, `allure-results/`.',
    '',
  );
  return out.join('\n');
}

/** The outcome and the coverage figure; "Conforms" only for the outcome `conforms`. */
function headline(report: Report): string {
  return `${outcomeTitle(report.summary.outcome)} (${coverageFigure(report.summary.coverage)})`;
}

function section(
  out: string[],
  title: string,
  results: RuleResult[],
  render: (r: RuleResult) => string,
): void {
  if (results.length === 0) return;
  out.push(`## ${title} (${results.length})`, '');
  for (const result of results.slice(0, LIST_LIMIT)) out.push(render(result));
  if (results.length > LIST_LIMIT)
    out.push(`- … and ${results.length - LIST_LIMIT} more in report.html`);
  out.push('');
}

function line(result: RuleResult, report: Report): string {
  const seed =
    result.counterexample && !result.reproduce
      ? ` (counterexample; replay: ${markdownCode(replayCommand(report, result.rule_id))})`
      : '';
  const main = `- **${result.rule_id}** ${markdownText(result.title)}: ${markdownText(result.reason ?? '')}${seed}${waiverMarkdown(result)}`;
  const source = sourceMarkdown(result);
  const withSource = source ? `${main}\n${source}` : main;
  return result.reproduce ? `${withSource}\n${reproduceLines(result.reproduce)}` : withSource;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
