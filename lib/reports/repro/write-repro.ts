import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../report-model.js';
import type { SafetyNet } from '../safety-net.js';
import { reproFile } from './repro-file.js';
import { curlFileOf, REPRO_DIR, type Reproduction, WARNINGS_DIR } from './reproduction.js';

/**
 * Runs the reproductions of a folder as node:test tests: `repro/test.mjs`
 * (`node --test repro/`, on Node 22 to 26) the failures and errors,
 * `repro/warnings/all.mjs` the warnings. Named so that no pattern node --test
 * looks for by itself finds the warnings from `repro/`.
 */
function testEntry(command: string): string {
  return `// \`${command}\`: every reproduction beside this file as one test.
import { readdirSync } from 'node:fs';
const here = new URL('./', import.meta.url);
for (const file of readdirSync(here).filter((f) => /^[A-Z]+-\\d{2}\\.mjs$/.test(f)).sort()) {
  await import(new URL(file, here));
}
`;
}

/**
 * Writes `repro/`: one standalone reproduction per failed and error result
 * with exchanges and its curl form beside it (`.sh`), warnings in
 * `repro/warnings/`, a README listing them, and
 * what makes each folder a node:test suite. Every file goes through the
 * safety net. Answers the files.
 */
export async function writeRepro(
  report: Report,
  reproductions: readonly Reproduction[],
  dir: string,
  net: SafetyNet,
): Promise<string[]> {
  if (reproductions.length === 0) return [];
  const warnings = reproductions.some((r) => r.file.startsWith(`${WARNINGS_DIR}/`));
  await mkdir(join(dir, warnings ? WARNINGS_DIR : REPRO_DIR), { recursive: true });
  const files: [string, string][] = reproductions.flatMap((r): [string, string][] => {
    const readme = r.file.startsWith(`${WARNINGS_DIR}/`) ? '../README.md' : 'README.md';
    return [
      [r.file, reproFile(net.cleanValue(r.plan), report.suite_version, readme)],
      [curlFileOf(r.file), `${r.curl.join('\n')}\n`],
    ];
  });
  files.push([`${REPRO_DIR}/README.md`, readme(report, reproductions)]);
  // `node --test repro/` runs the folder's entry on Node 22 and 24, and finds test.mjs on 26.
  files.push([
    `${REPRO_DIR}/package.json`,
    `${JSON.stringify({ type: 'module', main: 'test.mjs' }, null, 2)}\n`,
  ]);
  files.push([`${REPRO_DIR}/test.mjs`, testEntry('node --test repro/')]);
  if (warnings)
    files.push([`${WARNINGS_DIR}/all.mjs`, testEntry('node --test repro/warnings/all.mjs')]);
  const written: string[] = [];
  for (const [name, content] of files) {
    const path = join(dir, name);
    const executable = name.endsWith('.mjs') || name.endsWith('.sh');
    await writeFile(path, net.clean(content), executable ? { mode: 0o755 } : {});
    written.push(path);
  }
  return written;
}

function readme(report: Report, reproductions: readonly Reproduction[]): string {
  const first = reproductions[0]?.plan;
  const partner = first?.mode === 'partner';
  const env = partner ? 'PARTNER_ACCESS_KEY_ID=… PARTNER_SECRET_KEY=…' : 'CONTROL_TOKEN=…';
  const embedded = first?.target === null;
  const target = embedded ? 'https://your-server.example' : (first?.target ?? '');
  const rows = reproductions.map((r) => {
    const title = r.plan.rule.title.replaceAll('|', '\\|');
    return `| [${r.file.slice(REPRO_DIR.length + 1)}](${r.file.slice(REPRO_DIR.length + 1)}) | ${r.plan.verdict} | ${title} |`;
  });
  return [
    '# Standalone reproductions',
    '',
    `One file per failed, error or warning result of the run of ${report.started_at} against ${embedded ? "the suite's bundled reference server" : report.target}.`,
    "Each replays the check's whole sequence (its own account, keys, clock moves, faults and service",
    'states through the control API; with a partner key only what the key allows), sends again',
    'together what the check sent together, learns every identifier from the answers it gets, and',
    "judges the rule's condition again on them: a server that breaks the rule another way still fails.",
    'At its end it removes what it made (orders cancelled, webhook endpoints deleted, keys revoked).',
    'Plain Node 22 or later, no install, from any directory:',
    '',
    '```sh',
    `${env} node ${reproductions.find((r) => !r.file.startsWith(`${WARNINGS_DIR}/`))?.plan.rule.id ?? first?.rule.id ?? 'RULE-01'}.mjs --target ${target}`,
    `${env} TARGET_BASE_URL=${target} node --test repro/   # every failure as a test: a fix turns one green`,
    `${env} TARGET_BASE_URL=${target} node --test repro/warnings/all.mjs   # the warnings (SHOULD and DIALECT readings)`,
    '```',
    '',
    ...(embedded
      ? [
          "The run tested the suite's bundled reference server, on a port that closed with the run: point",
          'them at a running server with `--target` (under `node --test`, `TARGET_BASE_URL`).',
          '',
        ]
      : []),
    'Exit 1 and `REPRODUCED: …` while the server breaks the rule; 0 and `NOT REPRODUCED: …` (what came,',
    'as required) once it does not; 2 when it cannot tell (`DIFFERENT ANSWER: the run got 429, now 200`)',
    'or cannot run (unreachable target, refused credential), saying why. The control API follows',
    '`--target` unless `--control-url` says otherwise; orders with a live key need `--allow-live-orders`.',
    '`--verbose` prints every request and answer, headers included, secrets redacted. Beside each',
    '`<RULE>.mjs`, `<RULE>.sh` is its curl form (also `reproduce.curl` in report.json): the same plan',
    'as a sh script (needs curl, awk and node), judged the same way: `CONTROL_TOKEN=… TARGET=… sh <RULE>.sh`.',
    '',
    "How to read and use them: docs/replay.md in the suite's checkout or installed package",
    '(`node_modules/partner-ordering-conformance/docs/replay.md`).',
    '',
    '| file | verdict | rule |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
