import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../config/package-root.js';
import type { Settings } from '../config/settings.js';
import { SIGNATURE_FILE } from '../reports/file-hashes.js';
import { type Manifest, writeManifest } from '../reports/manifest.js';
import type { Report } from '../reports/report-model.js';
import { readPrivateKey, signBytes } from '../reports/signature.js';

const API_DOCUMENT = 'docs/partner-ordering-api.md';

/**
 * The certification package's last two files, after every report is on
 * disk: manifest.json (hashes of everything else) and, with `--sign-key`,
 * manifest.sig. The report passed in is the one written (already through
 * the safety net); the options recorded are the resolved ones, no secret.
 */
export async function writeCertificationPackage(
  report: Report,
  settings: Settings,
  cwd: string,
): Promise<Manifest> {
  const profileFile = settings.profile.file ? resolve(cwd, settings.profile.file) : undefined;
  const manifest = await writeManifest(report, settings.reportDir, {
    apiDocument: { file: API_DOCUMENT, path: join(PACKAGE_ROOT, API_DOCUMENT) },
    profile: {
      name: settings.profile.file ?? settings.profile.name,
      content: profileFile ? await readFile(profileFile) : JSON.stringify(settings.profile.dialect),
    },
    options: manifestOptions(settings),
  });
  const keyFile = settings.workflow?.signKey;
  if (keyFile) {
    const key = readPrivateKey(await readFile(keyFile, 'utf8'));
    const bytes = await readFile(join(settings.reportDir, 'manifest.json'));
    await writeFile(join(settings.reportDir, SIGNATURE_FILE), signBytes(bytes, key));
  }
  return manifest;
}

/** Every option that shaped the run; secrets only as "set" / absent. */
function manifestOptions(settings: Settings): Record<string, unknown> {
  const workflow = settings.workflow ?? {};
  return {
    target: settings.target ?? null,
    control_url: settings.controlUrl ?? null,
    control_token: settings.controlToken ? 'set (not recorded)' : null,
    partner_access_key_id: settings.partnerKey?.accessKeyId ?? null,
    profile: settings.profile.file ?? settings.profile.name,
    only: settings.only,
    seed: settings.seed,
    num_runs: settings.numRuns,
    timeout_ms: settings.requestTimeoutMs,
    allow_live_orders: settings.allowLiveOrders,
    suites: settings.suites,
    ...(settings.compare ? { compare: settings.compare } : {}),
    ...(workflow.waivers ? { waivers: workflow.waivers.file } : {}),
    ...(workflow.history ? { history: workflow.history } : {}),
    signed: Boolean(workflow.signKey),
  };
}
