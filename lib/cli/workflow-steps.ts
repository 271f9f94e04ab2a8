import { join } from 'node:path';
import type { Settings } from '../config/settings.js';
import type { Replay } from '../evidence/trace.js';
import { computeHistory, loadHistory, storeInHistory } from '../reports/history.js';
import type { Report } from '../reports/report-model.js';
import { type ReproSettings, reproSettings } from '../reports/repro/repro-settings.js';
import type { Reproduction } from '../reports/repro/reproduction.js';
import { attachReproduction, replayBase } from '../reports/reproduce.js';
import type { SafetyNet } from '../reports/safety-net.js';
import { writeCertificationPackage } from './certification.js';
import { replaySettings } from './replay-settings.js';

/**
 * The certifier's and nightly runner's additions to a run, in the order the
 * run needs them (waivers were applied with the verdicts, lib/verdict):
 * reproduction and history before the reports are rendered, history and the
 * certification package after they are written.
 *
 * The report as written: each failure's reproduction (planned once here, from
 * the run's replays) and the history. Answers the reproductions to write
 * beside it.
 */
export async function completeReport(
  built: Report,
  settings: Settings,
  cwd: string,
  replays: ReadonlyMap<string, Replay>,
): Promise<{ report: Report; reproductions: Reproduction[] }> {
  const attached = attachReproduction(built, replayBase(replaySettings(settings, cwd)), {
    settings: reproSettingsOf(built, settings),
    replays,
  });
  let report = attached.report;
  const dir = settings.workflow?.history;
  if (dir) {
    const { runs, unreadable } = await loadHistory(dir);
    report = { ...report, history: computeHistory(report, runs, dir, unreadable) };
  }
  return { report, reproductions: attached.reproductions };
}

/** Where the run's reproductions replay by default, and where the target keeps what they make. */
function reproSettingsOf(report: Report, settings: Settings): ReproSettings {
  const info = report.target_info;
  return reproSettings(
    {
      origin: report.target,
      apiBaseUrl: info.api_base_url,
      controlUrl: info.control_url,
      embedded: info.embedded_reference,
    },
    settings.profile.dialect,
    !info.control_url,
  );
}

/** After the reports are written: keep the run in the history, then hash (and sign) the directory. */
export async function afterReportsWritten(
  report: Report,
  settings: Settings,
  cwd: string,
  net: SafetyNet,
): Promise<void> {
  const dir = settings.workflow?.history;
  if (dir) {
    await storeInHistory(dir, join(settings.reportDir, 'report.json'), report.started_at);
  }
  await writeCertificationPackage(report, settings, cwd, net);
}
