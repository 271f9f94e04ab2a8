import { escapeTerminal } from './escape-terminal.js';

/**
 * Text put into summary.md, escaped for where it stands (CommonMark and
 * GitHub's flavour). A target's words reach summary.md (a problem `code`, a
 * reason quoting an answer), and a Markdown viewer renders HTML and headings:
 * none of it may become an element, a heading, a link or the end of a block.
 * Control characters become visible escapes first (escape-terminal.ts): a
 * lone carriage return is a line ending to a Markdown parser.
 */

/** Inline text on one line: whitespace runs become one space; Markdown's and HTML's syntax is escaped. */
export function markdownText(value: string): string {
  return escapeTerminal(value.replace(/[\t\n\v\f\r \u00a0]+/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/([\\`*_[\]<>|!#~])/g, '\\$1');
}

/**
 * An inline code span holding `value` as it is (on one line): delimited by
 * more backticks than any run inside it, so nothing in it can end it.
 */
export function markdownCode(value: string): string {
  const text = escapeTerminal(value.replace(/[\t\n\v\f\r]+/g, ' '));
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A fenced code block, each line indented by `indent` (a block under a list
 * item): its fence is longer than any run of backticks inside, and every
 * control character inside is made visible, so no line of it can close it or
 * leave the list item.
 */
export function markdownFence(text: string, info = '', indent = ''): string {
  const lines = escapeTerminal(text, { keepNewlines: true }).split('\n');
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return [
    `${indent}${fence}${info}`,
    ...lines.map((line) => `${indent}${line}`),
    `${indent}${fence}`,
  ].join('\n');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
