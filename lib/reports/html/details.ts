import type { Exchange } from '../../evidence/exchange.js';
import { nestingDepth } from '../../evidence/json-text.js';
import { escapeHtml as e, escapeHtmlText as inText } from '../escape-html.js';
import type { RuleResult } from '../report-model.js';
import { curlFileOf } from '../repro/reproduction.js';

/** Bodies are already cut by the recorder; this keeps a page of many failures light. */
const MAX_BODY = 8_000;

/** What a rule's row unfolds to: violations, counterexample, harness error, notes, evidence. */
export function ruleDetails(result: RuleResult, replay: string): string {
  const parts: string[] = [];
  if (result.violations?.length) parts.push(violations(result));
  if (result.reproduce) parts.push(reproduce(result.reproduce));
  if (result.counterexample) {
    const ce = result.counterexample;
    // The run seed replays it (with --only); the fast-check seed is internal and not offered.
    parts.push(
      `<h4>Counterexample</h4><p class="muted">shrunk after ${e(String(ce.numRuns))} runs. Replay: <code>${e(replay)}</code></p><pre>${inText(ce.value)}</pre>`,
    );
  }
  if (result.harness_error) {
    parts.push(
      `<h4>Harness error</h4><p><code>${e(result.harness_error.code)}</code> ${e(result.harness_error.message)}</p>`,
    );
  }
  if (result.missing?.length) {
    parts.push(
      `<p class="muted">Missing: ${result.missing.map((m) => `<code>${e(m)}</code>`).join(', ')}</p>`,
    );
  }
  if (result.notes?.length) {
    parts.push(
      `<h4>Notes</h4><ul>${result.notes.map((note) => `<li>${e(note)}</li>`).join('')}</ul>`,
    );
  }
  if (result.evidence?.length) {
    const pinned = new Set(
      (result.violations ?? []).map((v) => v.exchange).filter((id) => id !== undefined),
    );
    parts.push(
      `<h4>Evidence (${result.evidence.length} ${result.evidence.length === 1 ? 'exchange' : 'exchanges'})</h4>`,
    );
    parts.push(
      ...result.evidence.map((exchange) =>
        renderExchange(exchange, pinned.has(exchange.id), result.rule_id),
      ),
    );
  }
  if (result.file) parts.push(`<p class="muted">Check: <code>${e(result.file)}</code></p>`);
  return parts.join('\n');
}

function violations(result: RuleResult): string {
  const rows = (result.violations ?? []).map(
    (v) =>
      `<tr><td><code>${e(v.code)}</code></td><td><code>${e(v.pointer || '/')}</code></td><td>${e(v.message)}</td><td><pre>${inText(json(v.expected))}</pre></td><td><pre>${inText(json(v.received))}</pre></td><td>${v.exchange === undefined ? '' : `<a href="#${exchangeAnchor(result.rule_id, v.exchange)}">#${e(String(v.exchange))}</a>`}</td></tr>`,
  );
  return `<h4>Violations</h4><table class="violations"><thead><tr><th>code</th><th>pointer</th><th>what</th><th>expected</th><th>received</th><th>exchange</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Exchange numbers restart in every rule: the anchor names the rule too, so ids are unique on the page. */
function exchangeAnchor(ruleId: string, exchange: number): string {
  return `ex-${e(ruleId)}-${e(String(exchange))}`;
}

function reproduce(what: { command: string; curl: string[]; file?: string }): string {
  return `<h4>Reproduce</h4>${reproduceFile(what.file)}<p class="muted">This rule alone, same target, seed and settings:</p><pre class="reproduce">${inText(what.command)}</pre>${reproduceCurl(what)}`;
}

/** The standalone reproduction: no suite needed to run it. */
function reproduceFile(file: string | undefined): string {
  if (!file) return '';
  return `<p class="muted">Standalone, with plain <code>node</code> and no install (see repro/README.md): <a href="${e(file)}"><code>${e(file)}</code></a>; the same with curl: <a href="${e(curlFileOf(file))}"><code>${e(curlFileOf(file))}</code></a></p>`;
}

/** The curl form, folded: a few hundred lines (the same plan as the `.mjs`, as a sh script). */
function reproduceCurl(what: { curl: string[] }): string {
  if (!what.curl.length) return '';
  return `<details><summary>The curl form (a POSIX sh script: needs curl, awk and node; export the variables it names)</summary><pre class="curl">${inText(what.curl.join('\n'))}</pre></details>`;
}

/** One exchange, its request and answer folded unless `open`; `ruleId` names its anchor (`exchangeAnchor`). */
export function renderExchange(
  exchange: Exchange,
  pinned: boolean,
  ruleId: string,
  open = false,
): string {
  const response = exchange.response;
  const status = response
    ? `${response.status}`
    : `no response: ${exchange.error?.code ?? 'error'} ${exchange.error?.message ?? ''}`;
  const request = `${exchange.request.method} ${exchange.request.url}\n${headers(exchange.request.headers)}${body(exchange.request.body)}`;
  const answer = response
    ? `HTTP ${response.status}\n${headers(response.headers)}${body(response.body)}`
    : '';
  return `<div class="exchange${pinned ? ' pinned' : ''}" id="${exchangeAnchor(ruleId, exchange.id)}"><div><b>#${e(String(exchange.id))}</b> <span class="muted">${e(exchange.channel)}</span> ${e(exchange.request.method)} <code>${e(exchange.request.url)}</code> → <b>${e(status)}</b> <span class="muted">${e(String(exchange.durationMs))} ms, ${e(exchange.startedAt)}</span></div>${exchange.notes?.length ? `<ul class="notes">${exchange.notes.map((note) => `<li>${e(note)}</li>`).join('')}</ul>` : ''}<details${open ? ' open' : ''}><summary>request and response</summary><pre>${inText(request)}</pre>${answer ? `<pre>${inText(answer)}</pre>` : ''}</details></div>`;
}

function headers(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([name, value]) => `${name}: ${value}\n`)
    .join('');
}

/**
 * JSON bodies pretty-printed; anything else as it came. Deeply nested JSON (the
 * checks send some on purpose) is shown as it came too: indentation grows with
 * the square of the depth, and one 4,000-character body of nested arrays
 * pretty-printed to megabytes before being cut (most of report.html's
 * memory).
 */
function body(text: string | undefined): string {
  if (text === undefined || text === '') return '';
  let shown = text;
  if (nestingDepth(text, MAX_PRETTY_DEPTH + 1) <= MAX_PRETTY_DEPTH) {
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as received, which is itself evidence.
    }
  }
  if (shown.length > MAX_BODY)
    shown = `${shown.slice(0, MAX_BODY)}… [${shown.length - MAX_BODY} more characters]`;
  return `\n${shown}`;
}

/** Deeper than this, a JSON body is shown as it came rather than indented. */
const MAX_PRETTY_DEPTH = 32;

function json(value: unknown): string {
  if (value === undefined) return '(absent)';
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
}
