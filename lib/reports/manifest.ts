import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWaived } from '../verdict/apply-waivers.js';
import type { Verdict } from '../verdict/words.js';
import { hashDirectory, MANIFEST_FILE, sha256 } from './file-hashes.js';
import type { Report } from './report-model.js';
import type { SafetyNet } from './safety-net.js';

/**
 * `manifest.json`, the certification package's table of contents: what
 * judged (suite, contract, API document, profile), what was judged (target,
 * options, seed), when, the verdict of every rule, and the sha256 of every
 * file of the report directory. `--verify DIR` checks it; `--sign-key`
 * signs it (manifest.sig). Written last, after every other file, through
 * the safety net: its values come from the report and the run's options.
 */
export interface Manifest {
  manifest_version: 1;
  suite_version: string;
  contract_version: string;
  api_document: { file: string; sha256: string };
  profile: { name: string; sha256: string };
  seed: number;
  num_runs: number;
  target: string;
  embedded_reference: boolean;
  /** Every option that shaped the run, none secret. */
  options: Record<string, unknown>;
  started_at: string;
  finished_at: string;
  exit_code: number;
  exit_reason: string;
  /** `summary.outcome`, when the report has one. */
  outcome?: unknown;
  coverage: unknown;
  summary: Report['summary'];
  verdicts: Record<string, { verdict: Verdict; level: string; waived?: boolean }>;
  files: Record<string, string>;
}

export interface ManifestInput {
  /** The API document the rules rest on (its text is hashed). */
  apiDocument: { file: string; path: string };
  /** The profile's name and its bytes (the file, or the built-in dialect as JSON). */
  profile: { name: string; content: Buffer | string };
  options: Record<string, unknown>;
}

export async function writeManifest(
  report: Report,
  dir: string,
  input: ManifestInput,
  net: SafetyNet,
): Promise<Manifest> {
  const summary = report.summary as Report['summary'] & { outcome?: unknown; coverage?: unknown };
  // The manifest's own values only: cleaning the whole report again (megabytes of evidence,
  // already cleaned for its files) took ~40 ms of every run's end.
  const manifest: Manifest = net.cleanValue({
    manifest_version: 1,
    suite_version: report.suite_version,
    contract_version: report.contract_version,
    api_document: {
      file: input.apiDocument.file,
      sha256: sha256(await readFile(input.apiDocument.path)),
    },
    profile: { name: input.profile.name, sha256: sha256(input.profile.content) },
    seed: report.seed,
    num_runs: report.num_runs,
    target: report.target,
    embedded_reference: report.target_info.embedded_reference,
    options: input.options,
    started_at: report.started_at,
    finished_at: report.finished_at,
    exit_code: report.exit_code,
    exit_reason: report.exit_reason,
    ...(summary.outcome !== undefined ? { outcome: summary.outcome } : {}),
    coverage: summary.coverage ?? report.coverage,
    summary: report.summary,
    verdicts: Object.fromEntries(
      report.results.map((r) => [
        r.rule_id,
        {
          verdict: r.verdict,
          level: r.level,
          ...(isWaived(r) ? { waived: true } : {}),
        },
      ]),
    ),
    files: hashDirectory(dir),
  });
  await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
