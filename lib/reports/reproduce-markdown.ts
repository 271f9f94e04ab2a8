import { markdownFence } from './markdown-text.js';
import type { Reproduce } from './report-model.js';

/**
 * A result's reproduction under its list item in summary.md: the command and
 * the curl lines in a fenced block, copyable as they are, under a fence no
 * line of theirs can close (markdown-text.ts).
 */
export function reproduceLines(reproduce: Reproduce): string {
  return markdownFence([reproduce.command, ...reproduce.curl].join('\n'), 'sh', '  ');
}
