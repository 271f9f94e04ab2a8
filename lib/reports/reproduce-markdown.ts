import type { Reproduce } from './report-model.js';
import { curlFileOf } from './repro/reproduction.js';

/**
 * A result's reproduction under its list item in summary.md, in a fenced
 * block (copyable as is; a fence needs no escaping as long as the text holds
 * no fence of its own): the command, then the standalone reproduction and its
 * curl form as the files they are (a curl form is a few hundred lines: its
 * text is report.json's `reproduce.curl`).
 */
export function reproduceLines(reproduce: Reproduce): string {
  const lines = reproduce.file
    ? [
        reproduce.command,
        `node ${reproduce.file}   # standalone, no install: exit 1 while the failure stands`,
        `sh ${curlFileOf(reproduce.file)}   # the same with curl`,
      ]
    : [reproduce.command];
  const body = lines.join('\n').replaceAll('```', "'''");
  return ['  ```sh', ...body.split('\n').map((l) => `  ${l}`), '  ```'].join('\n');
}
