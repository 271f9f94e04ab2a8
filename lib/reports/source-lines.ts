import { escapeHtml as e } from './escape-html.js';
import type { RuleResult } from './report-model.js';

/**
 * The sentence of the document a failed or warning result rests on (issue
 * 21), for each report format: small functions so that each renderer adds
 * one call and nothing else.
 */
const SHOWN = new Set(['failed', 'warning']);

function docName(doc: string): string {
  return doc === 'api' ? 'API document' : 'target contract';
}

/** "API document, section 3: “…”" */
export function sourceText(result: RuleResult): string | undefined {
  const source = result.source;
  if (!source) return undefined;
  return `${docName(source.doc)}, section ${source.section}${source.rfc ? ` (${source.rfc})` : ''}: “${source.quote}”`;
}

/** Under the title in report.html, for failed and warning results. */
export function sourceHtml(result: RuleResult): string {
  const text = SHOWN.has(result.verdict) ? sourceText(result) : undefined;
  return text ? `<blockquote class="source">${e(text)}</blockquote>` : '';
}

/** A line under the result in summary.md. */
export function sourceMarkdown(result: RuleResult): string | undefined {
  const text = sourceText(result);
  return text ? `  > ${text.replace(/\n/g, ' ')}` : undefined;
}
