import { markdownFence } from './markdown-text.js';
import type { Reproduce } from './report-model.js';
import { curlFileOf } from './repro/reproduction.js';

/**
 * A result's reproduction under its list item in summary.md: the command,
 * then the standalone reproduction and its curl form as the files they are
 * (a curl form is a few hundred lines: its text is report.json's
 * `reproduce.curl`), in a fenced block copyable as it is, under a fence no
 * line of theirs can close (markdown-text.ts).
 */
export function reproduceLines(reproduce: Reproduce): string {
  const lines = reproduce.file
    ? [
        reproduce.command,
        `node ${reproduce.file}   # standalone, no install: exit 1 while the failure stands`,
        `sh ${curlFileOf(reproduce.file)}   # the same with curl`,
      ]
    : [reproduce.command];
  return markdownFence(lines.join('\n'), 'sh', '  ');
}
