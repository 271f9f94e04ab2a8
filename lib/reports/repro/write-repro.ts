import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../report-model.js';
import type { SafetyNet } from '../safety-net.js';
import { reproducible, reproFile } from './repro-file.js';
import type { ReproSettings } from './repro-settings.js';

export const REPRO_DIR = 'repro';

/** Runs every reproduction of the folder as node:test tests (`node --test repro/` on Node 22 to 26). */
const TEST_ENTRY = `// \`node --test repro/\` (or \`node --test repro/test.mjs\`): every reproduction here as one test.
import { readdirSync } from 'node:fs';
const here = new URL('./', import.meta.url);
for (const file of readdirSync(here).filter((f) => /^[A-Z]+-\\d{2}\\.mjs$/.test(f)).sort()) {
  await import(new URL(file, here));
}
`;

/**
 * Writes `repro/`: one standalone reproduction per failed, warning and error
 * result with exchanges, a README listing them, and what makes the folder a
 * node:test suite. Every file goes through the safety net. Answers the files.
 */
export async function writeRepro(
  report: Report,
  dir: string,
  net: SafetyNet,
  settings: ReproSettings,
): Promise<string[]> {
  const results = report.results.filter(reproducible);
  if (results.length === 0) return [];
  const folder = join(dir, REPRO_DIR);
  await mkdir(folder, { recursive: true });
  const files: [string, string][] = results.map((result) => [
    `${result.rule_id}.mjs`,
    reproFile(result, settings, report.suite_version),
  ]);
  files.push(['README.md', readme(report, settings)]);
  // `node --test repro/` runs the folder's entry on Node 22 and 24, and finds test.mjs on 26.
  files.push([
    'package.json',
    `${JSON.stringify({ type: 'module', main: 'test.mjs' }, null, 2)}\n`,
  ]);
  files.push(['test.mjs', TEST_ENTRY]);
  const written: string[] = [];
  for (const [name, content] of files) {
    const path = join(folder, name);
    await writeFile(path, net.clean(content), name.endsWith('.mjs') ? { mode: 0o755 } : {});
    written.push(path);
  }
  return written;
}

function readme(report: Report, settings: ReproSettings): string {
  const results = report.results.filter(reproducible);
  const env =
    settings.mode === 'partner'
      ? 'PARTNER_ACCESS_KEY_ID=… PARTNER_SECRET_KEY=…'
      : 'CONTROL_TOKEN=…';
  return [
    '# Standalone reproductions',
    '',
    `One file per failed, warning or error result of the run of ${report.started_at} against ${report.target}.`,
    "Each replays the check's whole sequence (its own account, keys, clock moves, faults and service",
    'states through the control API; with a partner key only what the key allows, cancelling what it',
    'places), learns every identifier from the answers it gets, and judges the violations again.',
    'Plain Node 22 or later, no install, from any directory:',
    '',
    '```sh',
    `${env} node ${results[0]?.rule_id ?? 'RULE-01'}.mjs --target ${settings.target}${settings.controlUrl ? ` --control-url ${settings.controlUrl}` : ''}`,
    `${env} node --test repro/   # every reproduction as a test: a fix turns one green`,
    '```',
    '',
    'Exit 1 and `REPRODUCED: …` when the server still breaks the rule, 0 and `NOT REPRODUCED` when it',
    'does not, 2 when it cannot run (unreachable target, refused credential): it says why. `--verbose`',
    'prints every request and answer, secrets redacted. Under `node --test`, `TARGET_BASE_URL` and',
    '`CONTROL_URL` point the tests elsewhere. The curl form of each is `reproduce.curl` in report.json.',
    '',
    'How to read and use them: docs/replay.md of partner-ordering-conformance',
    '(https://www.npmjs.com/package/partner-ordering-conformance, `docs/replay.md` in the package).',
    '',
    '| file | verdict | rule |',
    '|---|---|---|',
    ...results.map(
      (r) =>
        `| [${r.rule_id}.mjs](${r.rule_id}.mjs) | ${r.verdict} | ${r.title.replaceAll('|', '\\|')} |`,
    ),
    '',
  ].join('\n');
}
