import { findRule } from '../../../rules/index.js';
import { escapeHtml as e } from '../escape-html.js';
import { replayCommand } from '../replay-command.js';
import type { Report, RuleResult } from '../report-model.js';
import { unverifiedGroups } from '../unverified.js';
import { waiverMark } from '../waiver-mark.js';
import { ruleDetails } from './details.js';

/**
 * report.html's first screen: what a certifier came for, in the
 * order they need it. What failed and why (each failed rule with its
 * violations, the document's sentence, the reproduction and the
 * exchanges), then errors (the suite's, never the target's), then
 * warnings, then what could not be verified and the flag that would verify
 * it. The full table follows (render.ts). Each part is a function of one
 * result, so that what a result gains (a repro folder, a source) slots in.
 */
export function firstSections(report: Report, runErrors = ''): string {
  return [
    resultSection(report, 'failed', 'failures', 'Failed', failureBlock),
    resultSection(
      report,
      'error',
      'errors',
      'Errors (the suite or the network, not the target)',
      failureBlock,
    ),
    runErrors,
    resultSection(report, 'warning', 'warnings', 'Warnings (SHOULD and DIALECT)', warningBlock),
    unverifiedSection(report),
  ].join('\n');
}

/** The section of the page a verdict's count tile links to. */
export const SECTION_OF_VERDICT: Record<string, string> = {
  failed: 'failures',
  error: 'errors',
  warning: 'warnings',
  not_verifiable: 'not-verifiable',
  skipped: 'not-verifiable',
  passed: 'rules',
};

/** Whether a result's details are shown above the table (the table then links to them). */
export function shownAbove(result: RuleResult): boolean {
  return result.verdict === 'failed' || result.verdict === 'error' || result.verdict === 'warning';
}

function resultSection(
  report: Report,
  verdict: RuleResult['verdict'],
  id: string,
  title: string,
  block: (result: RuleResult, report: Report) => string,
): string {
  const listed = report.results.filter((r) => r.verdict === verdict);
  if (listed.length === 0) return '';
  return `<section id="${id}"><h2>${e(title)} (${listed.length})</h2>\n${listed.map((r) => block(r, report)).join('\n')}</section>`;
}

/** A failed (or error) rule, everything open: what it broke, where it says so, how to replay it, the exchanges. */
function failureBlock(result: RuleResult, report: Report): string {
  return `<article class="finding ${e(result.verdict)}" id="finding-${e(result.rule_id)}" data-rule="${e(result.rule_id)}">${findingHead(result)}${reasonLine(result)}${ruleQuote(result)}${ruleDetails(result, replayCommand(report, result.rule_id))}</article>`;
}

/** A warning: its head and reason; the details folded. */
function warningBlock(result: RuleResult, report: Report): string {
  const details = ruleDetails(result, replayCommand(report, result.rule_id));
  return `<article class="finding warning" id="finding-${e(result.rule_id)}" data-rule="${e(result.rule_id)}">${findingHead(result)}${reasonLine(result)}${ruleQuote(result)}${details ? `<details><summary>details</summary>${details}</details>` : ''}</article>`;
}

function findingHead(result: RuleResult): string {
  return `<h3><a class="rule-id" href="#rule-${e(result.rule_id)}">${e(result.rule_id)}</a> <span class="verdict v-${e(result.verdict)}">${e(result.verdict)}</span> <span class="muted">${e(result.level)}, section ${e(result.section)}</span> ${e(result.title)}</h3>`;
}

function reasonLine(result: RuleResult): string {
  const mark = waiverMark(result);
  if (!result.reason && !mark) return '';
  return `<p class="why">${e(result.reason ?? '')}${mark ? ` <span class="waived">${e(mark.trim())}</span>` : ''}</p>`;
}

/** The sentence(s) of the document the rule rests on: the yardstick the verdict used. */
function ruleQuote(result: RuleResult): string {
  const rule = findRule(result.rule_id);
  if (!rule) return '';
  const doc = rule.source.doc === 'api' ? 'API document' : 'target contract';
  const read = (rule.source.reading ?? []).map(
    (r) => `<p>As the target contract reads it (section 2): ${e(r)}</p>`,
  );
  const passages = [...rule.source.quote.map((q) => `<p>${e(q)}</p>`), ...read].join('');
  return `<blockquote class="quote" cite="${e(doc)}">${passages}<footer class="muted">${e(doc)}, section ${e(rule.source.section)}${rule.source.rfc ? `, ${e(rule.source.rfc)}` : ''}</footer></blockquote>`;
}

/** What could not be verified, grouped by what would verify it (the flag or setting named). */
function unverifiedSection(report: Report): string {
  const groups = unverifiedGroups(report);
  if (groups.length === 0) return '';
  const total = groups.reduce((n, g) => n + g.rule_ids.length, 0);
  const items = groups.map(
    (g) =>
      `<li><b>${g.rule_ids.length}</b> ${g.rule_ids.length === 1 ? 'rule needs' : 'rules need'} ${e(g.need)}${g.fix ? `: <span class="fix">${e(g.fix)}</span>` : ''}<div class="ids">${g.rule_ids.map((id) => `<a href="#rule-${e(id)}"><code>${e(id)}</code></a>`).join(' ')}</div></li>`,
  );
  return `<section id="not-verifiable"><h2>Not verified (${total})</h2><p class="muted">Not a verdict on the target: the run could not judge these rules. What would let it:</p><ul class="unverified">${items.join('')}</ul></section>`;
}

export const FIRST_STYLE = `
.finding { background: #fff; border: 1px solid #d0d7de; border-left: 4px solid var(--fail); border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.finding.error { border-left-color: var(--err); } .finding.warning { border-left-color: var(--warn); }
.finding h3 { font-size: 15px; margin: 0 0 4px; } .finding .rule-id { font-family: ui-monospace, monospace; }
.why { margin: 4px 0; }
blockquote.quote { margin: 6px 0; padding: 4px 10px; border-left: 3px solid #d0d7de; color: #1f2328; background: #f6f8fa; }
blockquote.quote p { margin: 2px 0; } blockquote.quote footer { font-size: 12px; }
ul.unverified li { margin: 6px 0; } .fix { font-weight: 600; } .ids { font-size: 12px; }
a.card { color: inherit; text-decoration: none; display: block; }
a.card:hover, a.card:focus { border-color: #0969da; text-decoration: underline; }
`;
