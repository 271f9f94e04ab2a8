import { LEVELS } from '../../../rules/index.js';
import { coverageFigure } from '../../verdict/decide.js';
import { VERDICTS } from '../../verdict/words.js';
import { areaTitle } from '../area-title.js';
import { casesLine } from '../build-report.js';
import { describeChange } from '../compare.js';
import { escapeHtml as e } from '../escape-html.js';
import { outcomeTitle, uncheckedKindsNote } from '../outcome.js';
import { replayCommand } from '../replay-command.js';
import type { Outcome, Report, RuleResult } from '../report-model.js';
import { clientHtmlPieces } from './client.js';
import { ruleDetails } from './details.js';
import { FIRST_STYLE, firstSections, SECTION_OF_VERDICT, shownAbove } from './first.js';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';
import { ruleBadges, WORKFLOW_STYLE, workflowSections } from './workflow.js';

/** The banner's class per outcome (style.ts colours them). */
const BANNER: Record<Outcome, string> = {
  conforms: 'conforms',
  partial: 'partial',
  does_not_conform: 'fails',
  undecided: 'inconclusive',
};

/**
 * `report.html`: one self-contained page (inline style and script, a CSP
 * that forbids loading anything), readable offline and as an attachment.
 * Every value from the run or the target is escaped: a target's response
 * body is untrusted text.
 */
export function renderHtml(report: Report): string {
  return [...htmlPieces(report)].join('');
}

/**
 * `report.html` in pieces, as write-reports.ts writes it: the page around the
 * table, and each rule's row (a row holds the rule's evidence: the whole page
 * of a full run is megabytes).
 */
export function* htmlPieces(report: Report): Generator<string> {
  if (report.client) {
    yield* clientHtmlPieces(report);
    return;
  }
  const verdict = [BANNER[report.summary.outcome], outcomeTitle(report.summary.outcome)];
  const areas = [...new Set(report.results.map((r) => r.area))];
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${e(report.target)}</title>
<style>${STYLE}${WORKFLOW_STYLE}${FIRST_STYLE}</style>
</head>
<body>
<header>
<h1>Partner Ordering API conformance report</h1>
<span class="banner ${verdict[0]}" id="outcome" data-outcome="${e(report.summary.outcome)}">${e(verdict[1] ?? '')}</span> <span id="coverage-figure">${e(coverageFigure(report.summary.coverage))}</span> <span class="muted">exit code ${report.exit_code}: ${e(report.exit_reason)}</span>
${findingIds(report)}
<dl class="meta">
<dt>Target</dt><dd>${e(report.target)}${report.target_info.embedded_reference ? ' (bundled reference server)' : ''}</dd>
<dt>API base</dt><dd>${e(report.target_info.api_base_url)}</dd>
<dt>Profile</dt><dd>${e(report.target_info.profile)}</dd>
<dt>Capabilities</dt><dd>${e(report.target_info.capabilities.join(', ') || 'none (no control API)')}</dd>
<dt>Run</dt><dd>${e(report.started_at)} to ${e(report.finished_at)} (${e((report.duration_ms / 1000).toFixed(1))} s)</dd>
<dt>Seed</dt><dd><code>${e(String(report.seed))}</code>, ${e(casesLine(report))}; replay: <code>${e(replayCommand(report, report.only?.join(',')))}</code></dd>
<dt>Suite</dt><dd>${e(report.suite_version)}, target contract ${e(report.contract_version)}</dd>
${report.only ? `<dt>Only</dt><dd>${e(report.only.join(', '))}</dd>` : ''}
</dl>
</header>
<main>
<nav class="cards" id="summary" aria-label="counts per verdict">
${VERDICTS.map((v) => `<a class="card" href="#${SECTION_OF_VERDICT[v] ?? 'rules'}" data-verdict="${v}" aria-pressed="false"><b>${report.summary[v]}</b><span class="verdict v-${v}">${v}</span></a>`).join('\n')}
</nav>
${firstSections(report, runErrors(report))}
${changes(report)}
${workflowSections(report)}
<h2 id="rules">All rules</h2>
<p class="muted">Coverage: ${report.coverage.checked} of ${report.coverage.rules} rules have a check; ${report.coverage.uncovered} uncovered (shown as not_verifiable). ${e(coverageFigure(report.summary.coverage))}; ${e(uncheckedKindsNote())}.</p>
<div class="filters">
<label>Verdict <select id="filter-verdict"><option value="">all</option>${VERDICTS.map((v) => `<option value="${v}">${v}</option>`).join('')}</select></label>
<label>Area <select id="filter-area"><option value="">all</option>${areas.map((a) => `<option value="${e(a)}">${e(a)}: ${e(areaTitle(a))}</option>`).join('')}</select></label>
<label>Level <select id="filter-level"><option value="">all</option>${LEVELS.map((l) => `<option value="${l}">${l}</option>`).join('')}</select></label>
<label>Search <input id="filter-text" type="search" placeholder="id, title, reason"></label>
<span class="muted"><span id="shown">${report.results.length}</span> of ${report.results.length} rules</span>
</div>
<table class="rules">
<thead><tr><th>Rule</th><th>Level</th><th>Section</th><th>Verdict</th><th>Title and reason</th></tr></thead>
<tbody>
`;
  for (const [i, result] of report.results.entries()) {
    yield `${i === 0 ? '' : '\n'}${row(result, report)}`;
  }
  yield `
</tbody>
</table>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** A row of the full table; a failure, error or warning links to its block above instead of repeating it. */
function row(result: RuleResult, report: Report): string {
  const reason = result.reason ? `<div class="reason">${e(result.reason)}</div>` : '';
  let unfold: string;
  if (shownAbove(result)) {
    unfold = `<div><a href="#finding-${e(result.rule_id)}">details above</a></div>`;
  } else {
    const details = ruleDetails(result, replayCommand(report, result.rule_id));
    unfold = details ? `<details><summary>details</summary>${details}</details>` : '';
  }
  return `<tr class="rule" id="rule-${e(result.rule_id)}" data-verdict="${e(result.verdict)}" data-area="${e(result.area)}" data-level="${e(result.level)}"><td class="id">${e(result.rule_id)}</td><td>${e(result.level)}</td><td>${e(result.section)}</td><td><span class="verdict v-${e(result.verdict)}">${e(result.verdict)}</span>${result.uncovered ? ' <span class="muted">uncovered</span>' : ''}${ruleBadges(result, report)}</td><td>${e(result.title)}${reason}${unfold}</td></tr>`;
}

function runErrors(report: Report): string {
  if (report.run_errors.length === 0) return '';
  const items = report.run_errors.map(
    (err) => `<li><code>${e(err.source)}</code>: ${e(err.message)}</li>`,
  );
  return `<h2>Run errors</h2><p class="muted">Harness errors no single rule owns; never the target's failure.</p><ul class="errors" id="run-errors">${items.join('')}</ul>`;
}

function changes(report: Report): string {
  const c = report.changes;
  if (!c) return '';
  const items = c.changed.map(
    (change) =>
      `<li>${e(describeChange(change))} <span class="muted">${e(change.title)}</span></li>`,
  );
  return `<h2>Changes since ${e(c.previous_started_at)}</h2><p class="muted">Compared with ${e(c.compared_to)} (${e(c.previous_target)}).</p><ul id="changes">${items.join('') || '<li>No verdict changed.</li>'}</ul>`;
}

/** Every failed (and errored) rule id, in the header: on the first screen however long the failures are. */
function findingIds(report: Report): string {
  const line = (verdict: 'failed' | 'error', label: string, id: string) => {
    const ids = report.results.filter((r) => r.verdict === verdict).map((r) => r.rule_id);
    if (ids.length === 0) return '';
    return `<p class="finding-ids" id="${id}"><b>${e(label)} (${ids.length}):</b> ${ids.map((rule) => `<a href="#finding-${e(rule)}"><code>${e(rule)}</code></a>`).join(' ')}</p>`;
  };
  return `${line('failed', 'Failed', 'failed-ids')}${line('error', 'Ended in error', 'error-ids')}`;
}
