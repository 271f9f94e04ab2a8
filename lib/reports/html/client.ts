import { LEVELS } from '../../../rules/index.js';
import { CLIENT_OUTCOMES } from '../../verdict/client.js';
import { clientOutcomeTitle, exercisedFigure, wordOf } from '../client-outcome.js';
import { escapeHtml as e } from '../escape-html.js';
import type { ClientRun, Outcome, Report, RuleResult } from '../report-model.js';
import { renderExchange } from './details.js';
import { FIRST_STYLE } from './first.js';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';

const BANNER: Record<Outcome, string> = {
  conforms: 'conforms',
  partial: 'partial',
  does_not_conform: 'fails',
  undecided: 'inconclusive',
};

/** The section each count tile links to. */
const SECTION_OF: Record<string, string> = {
  broken: 'broken',
  error: 'errors',
  not_exercised: 'not-exercised',
  honoured: 'rules',
};

/**
 * report.html of a client report (`client -- <command>`): the broken rules
 * first, each with the sentence of the API document it rests on, why, and
 * its exchanges open; then the situations the sandbox played, what was not
 * exercised and why, every client rule in the table the page's script
 * filters (the same script as a target's report), and the client's
 * exchanges in order. Same style, escaping and offline page as render.ts.
 */
export function* clientHtmlPieces(report: Report): Generator<string> {
  const client = report.client as ClientRun;
  const outcome = report.summary.outcome;
  const count = (word: string) => report.results.filter((r) => wordOf(r) === word).length;
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Client report: ${e(client.command.join(' '))}</title>
<style>${STYLE}${FIRST_STYLE}${CLIENT_STYLE}</style>
</head>
<body>
<header>
<h1>Partner Ordering API client report</h1>
<span class="banner ${BANNER[outcome]}" id="outcome" data-outcome="${e(outcome)}">${e(clientOutcomeTitle(outcome))}</span> <span id="coverage-figure">${e(exercisedFigure(report.results))}</span> <span class="muted">exit code ${report.exit_code}: ${e(report.exit_reason)}</span>
${brokenIds(report)}
<dl class="meta">
<dt>Command</dt><dd><code>${e(client.command.join(' '))}</code>: ${e(commandEnd(client))}</dd>
<dt>Sandbox</dt><dd>${e(report.target)}${report.target_info.embedded_reference ? ' (bundled reference server)' : ''}, test key <code>${e(report.target_info.partner_key?.access_key_id ?? '')}</code></dd>
<dt>Situations</dt><dd>${e(client.situations_chosen)}: ${client.situations.filter((s) => s.state === 'played').length} of ${client.situations.length} played (<a href="#situations">which</a>)</dd>
<dt>Traffic</dt><dd>${client.exchanges.length + (client.exchanges_omitted ?? 0)} requests of the client (<a href="#exchanges">in order</a>)</dd>
<dt>Run</dt><dd>${e(report.started_at)} to ${e(report.finished_at)} (${e((report.duration_ms / 1000).toFixed(1))} s)</dd>
<dt>Suite</dt><dd>${e(report.suite_version)}</dd>
</dl>
</header>
<main>
<nav class="cards" id="summary" aria-label="counts per outcome">
${CLIENT_OUTCOMES.map((o) => `<a class="card" href="#${SECTION_OF[o] ?? 'rules'}" data-verdict="${o}" aria-pressed="false"><b>${count(o)}</b><span class="verdict v-${o}">${o}</span></a>`).join('\n')}
</nav>
${findings(report, 'broken', 'broken', 'Broken')}
${findings(report, 'error', 'errors', 'Not judged (the grading failed, not the client)')}
${runErrors(report)}
${situations(client)}
${notExercised(report)}
<h2 id="rules">All client rules</h2>
<div class="filters">
<label>Outcome <select id="filter-verdict"><option value="">all</option>${CLIENT_OUTCOMES.map((o) => `<option value="${o}">${o}</option>`).join('')}</select></label>
<label>Area <select id="filter-area"><option value="">all</option><option value="CLIENT">CLIENT</option></select></label>
<label>Level <select id="filter-level"><option value="">all</option>${LEVELS.map((l) => `<option value="${l}">${l}</option>`).join('')}</select></label>
<label>Search <input id="filter-text" type="search" placeholder="id, title, reason"></label>
<span class="muted"><span id="shown">${report.results.length}</span> of ${report.results.length} rules</span>
</div>
<table class="rules">
<thead><tr><th>Rule</th><th>Level</th><th>Section</th><th>Outcome</th><th>Title and reason</th></tr></thead>
<tbody>
`;
  for (const [i, result] of report.results.entries()) yield `${i === 0 ? '' : '\n'}${row(result)}`;
  yield `
</tbody>
</table>
<h2 id="exchanges">The client's exchanges, in order</h2>
<p class="muted">As the client sent them and got them back, redacted; notes say what the sandbox did around them.${client.exchanges_omitted ? ` ${client.exchanges_omitted} more are left out of the report (they were judged).` : ''}</p>
`;
  for (const exchange of client.exchanges) yield `${renderExchange(exchange, false, 'all')}\n`;
  yield `</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function commandEnd(client: ClientRun): string {
  if (client.interrupted) return 'interrupted (Ctrl-C)';
  if (client.signal) return `ended on ${client.signal}`;
  return client.exit_code === null ? 'did not end' : `exited ${client.exit_code}`;
}

function brokenIds(report: Report): string {
  const ids = report.results.filter((r) => wordOf(r) === 'broken').map((r) => r.rule_id);
  if (ids.length === 0) return '';
  return `<p class="finding-ids" id="broken-ids"><b>Broken (${ids.length}):</b> ${ids.map((id) => `<a href="#finding-${e(id)}"><code>${e(id)}</code></a>`).join(' ')}</p>`;
}

/** The rules with this word, each with its quote, why, and its exchanges open (MUST first). */
function findings(report: Report, word: string, id: string, title: string): string {
  const listed = report.results
    .filter((r) => wordOf(r) === word)
    .sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level));
  if (listed.length === 0) return '';
  const blocks = listed.map(
    (r) =>
      `<article class="finding ${word === 'broken' ? 'failed' : 'error'}" id="finding-${e(r.rule_id)}" data-rule="${e(r.rule_id)}">${head(r)}<p class="why">${e(r.reason ?? '')}</p>${quote(r)}${evidence(r)}</article>`,
  );
  return `<section id="${id}"><h2>${e(title)} (${listed.length})</h2>\n${blocks.join('\n')}</section>`;
}

function head(result: RuleResult): string {
  const word = wordOf(result);
  return `<h3><a class="rule-id" href="#rule-${e(result.rule_id)}">${e(result.rule_id)}</a> <span class="verdict v-${e(word)}">${e(word)}</span> <span class="muted">${e(result.level)}, section ${e(result.section)}</span> ${e(result.title)}</h3>`;
}

/** The sentence(s) of the API document the rule rests on. */
function quote(result: RuleResult): string {
  const source = result.source;
  if (!source) return '';
  const doc = source.doc === 'api' ? 'API document' : 'target contract';
  const passages = source.quote
    .split(' … ')
    .map((q) => `<p>${e(q)}</p>`)
    .join('');
  return `<blockquote class="quote" cite="${e(doc)}">${passages}<footer class="muted">${e(doc)}, section ${e(source.section)}</footer></blockquote>`;
}

function evidence(result: RuleResult): string {
  const exchanges = result.evidence ?? [];
  if (exchanges.length === 0) return '';
  return `<h4>Exchanges (${exchanges.length})</h4>${exchanges.map((ex) => renderExchange(ex, true, result.rule_id, true)).join('')}`;
}

function runErrors(report: Report): string {
  if (report.run_errors.length === 0) return '';
  const items = report.run_errors.map(
    (err) => `<li><code>${e(err.source)}</code>: ${e(err.message)}</li>`,
  );
  return `<h2>Sandbox errors</h2><p class="muted">The sandbox's own failures; never the client's.</p><ul class="errors" id="run-errors">${items.join('')}</ul>`;
}

function situations(client: ClientRun): string {
  if (client.situations.length === 0)
    return '<section id="situations"><h2>Situations</h2><p class="muted">None was chosen (--situations none): the sandbox behaved as the reference does.</p></section>';
  const rows = client.situations.map(
    (s) =>
      `<tr data-state="${e(s.state)}"><td><code>${e(s.name)}</code>${s.reworded ? ' reworded' : ''}</td><td>${e(s.title)}</td><td>${e(s.state)}${s.exchange === undefined ? '' : ` at <a href="#${e(`ex-all-${s.exchange}`)}">#${e(String(s.exchange))}</a>`}</td><td class="muted">${e(s.note ?? '')}</td></tr>`,
  );
  return `<section id="situations"><h2>Situations</h2><table class="rules"><thead><tr><th>Situation</th><th>The client meets</th><th>Played</th><th>Note</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function notExercised(report: Report): string {
  const listed = report.results.filter((r) => wordOf(r) === 'not_exercised');
  if (listed.length === 0) return '';
  const items = listed.map(
    (r) =>
      `<li><a href="#rule-${e(r.rule_id)}"><code>${e(r.rule_id)}</code></a> ${e(r.title)}<div class="reason">${e(r.reason ?? '')}</div></li>`,
  );
  return `<section id="not-exercised"><h2>Not exercised (${listed.length})</h2><p class="muted">Not a verdict on the client: it never gave these rules a chance. Why, and what would have:</p><ul class="unverified">${items.join('')}</ul></section>`;
}

function row(result: RuleResult): string {
  const word = wordOf(result);
  const above = word === 'broken' || word === 'error';
  const more = above
    ? `<div><a href="#finding-${e(result.rule_id)}">details above</a></div>`
    : result.evidence?.length
      ? `<details><summary>exchanges</summary>${result.evidence.map((ex) => renderExchange(ex, false, result.rule_id)).join('')}</details>`
      : '';
  return `<tr class="rule" id="rule-${e(result.rule_id)}" data-verdict="${e(word)}" data-area="${e(result.area)}" data-level="${e(result.level)}"><td class="id">${e(result.rule_id)}</td><td>${e(result.level)}</td><td>${e(result.section)}</td><td><span class="verdict v-${e(word)}">${e(word)}</span></td><td>${e(result.title)}<div class="reason">${e(result.reason ?? '')}</div>${more}</td></tr>`;
}

const CLIENT_STYLE = `
.v-honoured { background: var(--pass); } .v-broken { background: var(--fail); } .v-not_exercised { background: var(--nv); }
ul.notes { margin: 2px 0 0 18px; padding: 0; font-size: 12px; color: #57606a; }
`;
