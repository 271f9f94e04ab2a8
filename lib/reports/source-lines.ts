import type { RuleResult } from './report-model.js';

/**
 * The sentence of the document a result rests on, for summary.md
 * and the JUnit failure message: small functions so that each renderer adds
 * one call (report.html quotes it under each finding: html/first.ts).
 */

function docName(doc: string): string {
  return doc === 'api' ? 'API document' : 'target contract';
}

/** "API document, section 3: “…”" */
export function sourceText(result: RuleResult): string | undefined {
  const source = result.source;
  if (!source) return undefined;
  const reading = source.reading ? `, as the target contract reads it: “${source.reading}”` : '';
  return `${docName(source.doc)}, section ${source.section}${source.rfc ? ` (${source.rfc})` : ''}: “${source.quote}”${reading}`;
}

/** A line under the result in summary.md. */
export function sourceMarkdown(result: RuleResult): string | undefined {
  const text = sourceText(result);
  return text ? `  > ${text.replace(/\n/g, ' ')}` : undefined;
}
