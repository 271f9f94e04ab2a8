import type { Reproduce } from './report-model.js';

/**
 * A result's reproduction under its list item in summary.md: the command and
 * the curl lines in a fenced block (copyable as is; a fence needs no escaping
 * as long as the text holds no fence of its own).
 */
export function reproduceLines(reproduce: Reproduce): string {
  const body = [reproduce.command, ...reproduce.curl].join('\n').replaceAll('```', "'''");
  return ['  ```sh', ...body.split('\n').map((l) => `  ${l}`), '  ```'].join('\n');
}
