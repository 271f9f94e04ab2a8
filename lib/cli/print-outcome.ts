import { relative } from 'node:path';
import { casesLine } from '../reports/build-report.js';
import { describeChange } from '../reports/compare.js';
import { outcomeLine } from '../reports/outcome.js';
import { pacingLine } from '../reports/partner-pacing.js';
import type { Report } from '../reports/report-model.js';
import { unverifiedGroups } from '../reports/unverified.js';
import { waiverMark } from '../reports/waiver-mark.js';
import { VERDICTS } from '../verdict/words.js';
import type { Terminal } from './terminal.js';

const LIST_LIMIT = 20;

/**
 * The end of a run on stdout, in report.html's order (what a user came for first): counts,
 * what failed, what ended in error, warnings, what was not verified and the
 * flag or setting that would verify it, what changed, where the reports
 * are, the outcome and the exit code.
 */
export function printOutcome(
  terminal: Terminal,
  report: Report,
  reportDir: string,
  cwd: string,
): void {
  terminal.out();
  const counts = VERDICTS.map((verdict) => `${verdict} ${report.summary[verdict]}`).join('  ');
  terminal.out(
    `${counts}   (${report.results.length} rules, ${(report.duration_ms / 1000).toFixed(1)} s, seed ${report.seed}, ${casesLine(report)})`,
  );
  if (report.partner_pacing)
    terminal.out(`Pacing: ${pacingLine(report.partner_pacing, report.duration_ms)}`);
  for (const [verdict, title] of [
    ['failed', 'MUST failures'],
    ['error', 'Errors (the suite or the network, not the target)'],
  ] as const) {
    const listed = report.results.filter((r) => r.verdict === verdict);
    if (listed.length === 0) continue;
    terminal.out(`${title}:`);
    for (const result of listed.slice(0, LIST_LIMIT)) {
      terminal.out(
        `  ${result.rule_id} ${result.title}${result.reason ? `: ${oneLine(result.reason)}` : ''}${waiverMark(result)}`,
      );
    }
    if (listed.length > LIST_LIMIT)
      terminal.out(`  … and ${listed.length - LIST_LIMIT} more (see report.html)`);
  }
  if (report.run_errors.length) {
    terminal.out('Run errors:');
    for (const error of report.run_errors.slice(0, LIST_LIMIT))
      terminal.out(`  ${error.source}: ${oneLine(error.message)}`);
  }
  const warnings = report.results.filter((r) => r.verdict === 'warning');
  if (warnings.length) {
    terminal.out('Warnings (SHOULD and DIALECT):');
    for (const result of warnings.slice(0, LIST_LIMIT))
      terminal.out(
        `  ${result.rule_id} ${result.title}${result.reason ? `: ${oneLine(result.reason)}` : ''}${waiverMark(result)}`,
      );
    if (warnings.length > LIST_LIMIT)
      terminal.out(`  … and ${warnings.length - LIST_LIMIT} more (see report.html)`);
  }
  const unverified = unverifiedGroups(report);
  if (unverified.length) {
    const total = unverified.reduce((n, g) => n + g.rule_ids.length, 0);
    terminal.out(`Not verified (${total}); what would verify them:`);
    for (const group of unverified) {
      const n = group.rule_ids.length;
      terminal.out(
        `  ${n} ${n === 1 ? 'rule needs' : 'rules need'} ${group.need}${group.fix ? `: ${group.fix}` : ''}`,
      );
    }
  }
  if (report.history) {
    const h = report.history;
    terminal.out(
      `History (${h.comparable_runs} earlier runs of ${h.target_name}): regressions ${h.new_failures.join(', ') || 'none'}; fixed ${h.fixed.join(', ') || 'none'}; flaky ${h.flaky.join(', ') || 'none'}`,
    );
  }
  if (report.changes) {
    const { changed, previous_started_at } = report.changes;
    terminal.out(
      `Changes since ${previous_started_at}: ${changed.length === 0 ? 'none' : changed.length}`,
    );
    for (const change of changed) terminal.out(`  ${describeChange(change)}`);
  }
  const shown = relative(cwd, reportDir) || '.';
  terminal.out(
    `Reports: ${shown.startsWith('..') ? reportDir : shown}/report.html (and report.json, junit.xml, summary.md, exchanges.har, manifest.json, allure-results/)`,
  );
  terminal.out(`Outcome: ${outcomeLine(report.summary)}`);
  terminal.out(`Exit ${report.exit_code}: ${report.exit_reason}`);
}

/** A terminal list stays one line per entry; the report keeps the full text. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}
