import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../config/package-root.js';
import type { Settings } from '../config/settings.js';
import { SIGNATURE_FILE, sha256 } from '../reports/file-hashes.js';
import { type Manifest, writeManifest } from '../reports/manifest.js';
import type { Report } from '../reports/report-model.js';
import type { SafetyNet } from '../reports/safety-net.js';
import { readPrivateKey, signBytes } from '../reports/signature.js';

const API_DOCUMENT = 'docs/partner-ordering-api.md';

/**
 * The certification package's last two files, after every report is on
 * disk: manifest.json (hashes of everything else) and, with `--sign-key`,
 * manifest.sig. The manifest goes through the safety net (`net`); the
 * options recorded are the resolved ones, no secret.
 */
export async function writeCertificationPackage(
  report: Report,
  settings: Settings,
  cwd: string,
  net: SafetyNet,
): Promise<Manifest> {
  const profileFile = settings.profile.file ? resolve(cwd, settings.profile.file) : undefined;
  const manifest = await writeManifest(
    report,
    settings.reportDir,
    {
      apiDocument: { file: API_DOCUMENT, path: join(PACKAGE_ROOT, API_DOCUMENT) },
      profile: {
        name: settings.profile.file ?? settings.profile.name,
        content: profileFile
          ? await readFile(profileFile)
          : JSON.stringify(settings.profile.dialect),
      },
      options: await manifestOptions(settings, report),
    },
    net,
  );
  const keyFile = settings.workflow?.signKey;
  if (keyFile) {
    const key = readPrivateKey(await readFile(keyFile, 'utf8'));
    const bytes = await readFile(join(settings.reportDir, 'manifest.json'));
    await writeFile(join(settings.reportDir, SIGNATURE_FILE), signBytes(bytes, key));
  }
  return manifest;
}

/**
 * Every option that shaped the run, and every one that can change a verdict
 * or the exit code: certify, the waivers' content, the history's
 * key. Secrets only as "set" / absent.
 */
async function manifestOptions(
  settings: Settings,
  report: Report,
): Promise<Record<string, unknown>> {
  const workflow = settings.workflow ?? {};
  const waivers = workflow.waivers;
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
    partner_key_mode: report.target_info.partner_key?.mode ?? null,
    allow_live_orders: settings.allowLiveOrders,
    certify: settings.certify,
    concurrency: settings.concurrency ?? null,
    suites: settings.suites,
    target_name: report.target_info.target_name ?? report.target,
    ...(settings.compare ? { compare: settings.compare } : {}),
    ...(waivers
      ? {
          waivers: {
            file: waivers.file,
            sha256: sha256(await readFile(waivers.file)),
            entries: waivers.waivers.map(({ expiresAt: _at, ...entry }) => entry),
            ignored_by_certify: settings.certify,
          },
        }
      : {}),
    ...(workflow.history ? { history: workflow.history } : {}),
    signed: Boolean(workflow.signKey),
  };
}
