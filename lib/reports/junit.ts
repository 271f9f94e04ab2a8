import type { ClientArea } from '../../rules/client/index.js';
import type { Area } from '../../rules/index.js';
import { isWaived } from '../verdict/apply-waivers.js';
import { coverageFigure } from '../verdict/decide.js';
import { areaTitle } from './area-title.js';
import { clientOutcomeTitle, exercisedFigure, wordOf } from './client-outcome.js';
import { escapeTerminal } from './escape-terminal.js';
import { outcomeTitle } from './outcome.js';
import { replayCommand } from './replay-command.js';
import type { Report, RuleResult } from './report-model.js';
import { sourceText } from './source-lines.js';
import { waiverMark } from './waiver-mark.js';

/**
 * `junit.xml`: one testcase per rule, one testsuite per area, for CI test
 * tabs. The mapping follows the contract's meaning, not vitest's states:
 * a failed MUST is a failure; a harness error is an error; not verifiable
 * and filtered rules are skipped; a warning passes (conformance stands) and
 * says why in system-out.
 */
export function renderJunit(report: Report): string {
  const byArea = new Map<Area | ClientArea, RuleResult[]>();
  for (const result of report.results)
    byArea.set(result.area, [...(byArea.get(result.area) ?? []), result]);
  const suites = [...byArea].map(([area, results]) => suite(area, results, report));
  const totals = count(report.results);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${report.client ? 'Partner Ordering API client grading' : 'Partner Ordering API conformance'}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(report.duration_ms)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function suite(area: Area | ClientArea, results: RuleResult[], report: Report): string {
  const timestamp = report.finished_at;
  const totals = count(results);
  const time = results.reduce((sum, r) => sum + (r.duration_ms ?? 0), 0);
  return [
    `  <testsuite name="${attr(`${area}: ${areaTitle(area)}`)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(time)}" timestamp="${attr(timestamp)}">`,
    properties(report),
    ...results.map((result) => testcase(result, report)),
    '  </testsuite>',
  ].join('\n');
}

function testcase(result: RuleResult, report: Report): string {
  const open = `    <testcase classname="${attr(`conformance.${result.area}`)}" name="${attr(`${result.rule_id} ${result.title}`)}" time="${seconds(result.duration_ms ?? 0)}"`;
  const reason = result.reason ?? '';
  const detail = details(result, report);
  switch (result.verdict) {
    case 'passed':
      return `${open}/>`;
    case 'warning':
      return `${open}>\n      <system-out>${text(`${wordOf(result) === 'broken' ? 'broken' : 'warning'} (${result.level}): ${reason}\n${detail}`)}</system-out>\n    </testcase>`;
    case 'failed':
      return `${open}>\n      <failure message="${attr(`${reason}${waiverMark(result)}${restsOn(result)}`)}" type="${attr(`${result.level} ${result.client ? 'client rule broken' : 'violation'}${isWaived(result) ? ' (waived)' : ''}`)}">${text(detail)}</failure>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${attr(reason)}" type="${attr(result.harness_error?.code ?? 'harness error')}">${text(detail)}</error>\n    </testcase>`;
    case 'not_verifiable':
    case 'skipped':
      return `${open}>\n      <skipped message="${attr(`${wordOf(result)}: ${reason}`)}"/>\n    </testcase>`;
  }
}

/** The failure message ends with the sentence of the document the rule rests on: CI shows why. */
function restsOn(result: RuleResult): string {
  const text = sourceText(result);
  return text ? ` (rests on the ${text})` : '';
}

/** The run's outcome and coverage on every testsuite: JUnit has no run-level properties. */
function properties(report: Report): string {
  const { outcome, coverage } = report.summary;
  const rows: [string, string][] = [
    ['conformance.outcome', outcome],
    [
      'conformance.outcome_text',
      report.client ? clientOutcomeTitle(outcome) : outcomeTitle(outcome),
    ],
    [
      'conformance.coverage',
      report.client ? exercisedFigure(report.results) : coverageFigure(coverage),
    ],
    ['conformance.must_verified', String(coverage.must_verified)],
    ['conformance.must_total', String(coverage.must_total)],
    ['conformance.should_verified', String(coverage.should_verified)],
    ['conformance.should_total', String(coverage.should_total)],
    ['conformance.statements_checked', String(coverage.statements_checked ?? 0)],
    ['conformance.statements_total', String(coverage.statements_total ?? 0)],
  ];
  return [
    '    <properties>',
    ...rows.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`),
    '    </properties>',
  ].join('\n');
}

/** The violations, counterexample and evidence summary as plain text. */
function details(result: RuleResult, report: Report): string {
  const lines: string[] = [];
  for (const v of result.violations ?? []) {
    lines.push(`${v.code} at ${v.pointer || '/'}: ${v.message}`);
    lines.push(`  expected: ${JSON.stringify(v.expected)}`);
    lines.push(`  received: ${JSON.stringify(v.received)}`);
  }
  const ce = result.counterexample;
  if (ce)
    lines.push(
      `counterexample (shrunk after ${ce.numRuns} runs): ${ce.value}\nreplay: ${replayCommand(report, result.rule_id)}`,
    );
  for (const ex of result.evidence ?? []) {
    const status = ex.response
      ? String(ex.response.status)
      : `no response (${ex.error?.code ?? 'error'})`;
    lines.push(`#${ex.id} ${ex.request.method} ${ex.request.url} -> ${status}`);
  }
  return lines.join('\n');
}

function count(results: RuleResult[]) {
  return {
    tests: results.length,
    failures: results.filter((r) => r.verdict === 'failed').length,
    errors: results.filter((r) => r.verdict === 'error').length,
    skipped: results.filter((r) => r.verdict === 'not_verifiable' || r.verdict === 'skipped')
      .length,
  };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/**
 * XML 1.0 forbids most control characters even escaped, and a CI page shows
 * the rest to a person: each is made visible (`\x1b`, `\r`); the two
 * non-characters and halves of a character go.
 */
function clean(value: string): string {
  return escapeTerminal(value, { keepNewlines: true }).replace(
    /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '',
  );
}

function text(value: string): string {
  return clean(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
