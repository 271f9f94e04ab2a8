import { escapeHtml as e } from '../escape-html.js';
import type { Report, RuleResult } from '../report-model.js';

/**
 * report.html's parts for waivers and history (certifiers and nightly runs): badges in a
 * rule's row, and the sections above the rules table.
 */
export function ruleBadges(result: RuleResult, report: Report): string {
  const parts: string[] = [];
  const w = result.waiver;
  if (w) {
    const link = w.link ? ` <a href="${e(w.link)}" rel="noreferrer">link</a>` : '';
    parts.push(
      w.ignored_by_certify
        ? ` <span class="waiver-expired">waiver ignored (--certify)</span><div class="reason">A waiver until ${e(w.expires)} would cover it, but a certification counts it: ${e(w.reason)}${link}</div>`
        : w.active
          ? ` <span class="waived" title="${e(w.reason)}">waived until ${e(w.expires)}</span><div class="reason">Waived: ${e(w.reason)}${link}</div>`
          : ` <span class="waiver-expired">waiver expired ${e(w.expires)}</span><div class="reason">Expired waiver: ${e(w.reason)}${link}</div>`,
    );
  }
  const trend = report.history?.rules[result.rule_id];
  if (trend && trend.verdicts.length > 1) {
    const dots = trend.verdicts
      .map(
        (v, i) =>
          `<span class="dot v-${e(v ?? 'none')}" title="${i === trend.verdicts.length - 1 ? 'this run' : `run ${i + 1}`}: ${e(v ?? 'not in that run')}"></span>`,
      )
      .join('');
    parts.push(
      `<div class="trend" data-rule="${e(result.rule_id)}">${dots}${trend.flaky ? ' <span class="flaky">flaky</span>' : ''}</div>`,
    );
  }
  return parts.join('');
}

export function workflowSections(report: Report): string {
  return `${waiverSection(report)}${historySection(report)}`;
}

function list(ids: readonly string[]): string {
  return ids.length
    ? ids.map((id) => `<a href="#rule-${e(id)}"><code>${e(id)}</code></a>`).join(', ')
    : 'none';
}

function waiverSection(report: Report): string {
  const w = report.waivers;
  if (!w) return '';
  const expired = w.expired.map(
    (x) => `<li><code>${e(x.rule_id)}</code> expired ${e(x.expires)}: ${e(x.reason)}</li>`,
  );
  const unused = w.unused.map(
    (x) => `<li><code>${e(x.rule_id)}</code> (until ${e(x.expires)}): ${e(x.reason)}</li>`,
  );
  return `<h2>Waivers</h2><div id="waivers"><p class="muted">From ${e(w.file)}. A waived failure stays failed; it does not fail the exit code until its waiver expires.</p>${w.certify ? `<p><b>--certify ignores waivers</b>: every failure counts. A waiver would have covered: ${list(w.certify.would_cover)}</p>` : `<p>Applied: ${list(w.applied)}</p>`}${expired.length ? `<p>Expired (the failure counts again):</p><ul class="expired">${expired.join('')}</ul>` : ''}${unused.length ? `<p>Unused (the rule passed; remove the waiver):</p><ul class="unused">${unused.join('')}</ul>` : ''}</div>`;
}

function historySection(report: Report): string {
  const h = report.history;
  if (!h) return '';
  return `<h2>History</h2><div id="history"><p class="muted">${h.comparable_runs} earlier ${h.comparable_runs === 1 ? 'run' : 'runs'} with this suite version, profile and target name <code>${e(h.target_name ?? report.target)}</code> in ${e(h.dir)} (${h.previous_runs} in all); each rule's row shows its last verdicts, oldest first.</p><p>Regressions (failed now, not failed in the latest run that judged the rule): ${list(h.new_failures)}</p><p>Fixed: ${list(h.fixed)}</p><p>Flaky (changed back and forth within the window with suite, profile and target name unchanged, and not a regression now): ${list(h.flaky)}</p></div>`;
}

export const WORKFLOW_STYLE = `
.waived { display: inline-block; border: 1px solid var(--warn); color: var(--warn); border-radius: 10px; padding: 0 6px; font-size: 12px; }
.waiver-expired { display: inline-block; border: 1px solid var(--fail); color: var(--fail); border-radius: 10px; padding: 0 6px; font-size: 12px; }
.trend { margin-top: 2px; } .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 2px; }
.dot.v-none { background: #d0d7de; }
.flaky { color: var(--err); font-weight: 600; font-size: 12px; }
`;
