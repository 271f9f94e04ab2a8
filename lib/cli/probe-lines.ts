import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { PreparedTarget } from '../prepare/prepare-target.js';
import type { DialectProbe } from '../probe/dialect-probe.js';
import type { SafetyNet } from '../reports/safety-net.js';

/** The file a stopped run leaves in its report directory: the probe's findings and exchanges. */
const PROBE_FILE = 'dialect-probe.json';

/** The last line of a run the dialect probe stopped: what it means and what to do. */
export function probeStopLine(
  probe: DialectProbe,
  profile: string,
  evidenceFile: string | undefined,
): string {
  const n = probe.mismatches.length;
  return `the target does not answer in the dialect of the profile (${profile}): ${n} ${
    n === 1 ? 'mismatch' : 'mismatches'
  } above, found by the dialect probe in ${probe.requests} requests before any check${
    evidenceFile ? ` (its exchanges: ${evidenceFile})` : ''
  }. Nothing was checked and nothing is blamed on the target: describe the target in a profile (--profile FILE, docs/profiles.md; --draft-profile FILE writes a first one from the target)`;
}

/**
 * The probe's findings and exchanges, through the safety net, in the report
 * directory: what the target answered, in full. Answers the file, relative to
 * the working directory, or undefined when it could not be written (the
 * terminal lines still say everything needed).
 */
export async function writeProbeEvidence(
  probe: DialectProbe,
  prepared: PreparedTarget,
  reportDir: string,
  net: SafetyNet,
  cwd: string,
): Promise<string | undefined> {
  const content = net.cleanValue({
    target: prepared.runConfig.origin,
    profile: prepared.targetInfo.profile,
    mismatches: probe.mismatches,
    ...(probe.notes.length ? { notes: probe.notes } : {}),
    requests: probe.requests,
    duration_ms: probe.durationMs,
    evidence: probe.evidence,
  });
  const file = join(reportDir, PROBE_FILE);
  try {
    await mkdir(reportDir, { recursive: true });
    await writeFile(file, net.clean(`${JSON.stringify(content, null, 2)}\n`));
  } catch {
    return undefined;
  }
  const shown = relative(cwd, file);
  return shown.startsWith('..') ? file : shown;
}
