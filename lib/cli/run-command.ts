import { activeRules } from '../../rules/index.js';
import { listenForTally } from '../client/tally-channel.js';
import { ConfigError } from '../config/config-error.js';
import { helpText } from '../config/help.js';
import { PACKAGE_ROOT } from '../config/package-root.js';
import { DEFAULT_SUITES, loadSettings, type Settings } from '../config/settings.js';
import { writeDemand } from '../plan/partner-demand.js';
import { type PreparedTarget, prepareTarget } from '../prepare/prepare-target.js';
import { RunAborted } from '../prepare/run-aborted.js';
import { carryProbe, probeDialect } from '../probe/dialect-probe.js';
import { mismatchLine } from '../probe/judge.js';
import { buildReport } from '../reports/build-report.js';
import { compareReports, loadPreviousReport, type PreviousReport } from '../reports/compare.js';
import { partnerPacing } from '../reports/partner-pacing.js';
import { SafetyNet } from '../reports/safety-net.js';
import { writeReports } from '../reports/write-reports.js';
import { decideRun } from '../verdict/decide.js';
import { bundledChecks, mergeResults } from '../verdict/rule-results.js';
import { EXIT } from '../verdict/words.js';
import { casesPerProperty } from './cases-banner.js';
import type { CommandIo } from './command-io.js';
import { printOutcome } from './print-outcome.js';
import { probeStopLine, writeProbeEvidence } from './probe-lines.js';
import { checkReportDir } from './report-dir.js';
import { type StartedChecks, startChecks } from './start-checks.js';
import { Terminal } from './terminal.js';
import { afterReportsWritten, completeReport } from './workflow-steps.js';

export type { CommandIo } from './command-io.js';

/**
 * One conformance run, start to end: settings, target, checks, reports.
 * Answers the exit code (target contract, section 4); a run that cannot be
 * carried out says why in one line and answers 2.
 */
export async function runCommand(io: CommandIo): Promise<number> {
  // `client -- <command>`: grade a partner's client instead of a target (docs/partners.md).
  if (io.argv[0] === 'client') {
    const { clientCommand } = await import('./client-command.js');
    return clientCommand({ ...io, argv: io.argv.slice(1) });
  }
  const terminal = new Terminal(io.stdout, io.stderr);
  terminal.protect(new SafetyNet({ keyPrefix: 'odp' }));
  try {
    return await run(io, terminal);
  } catch (error) {
    // A bug of the suite: one line through the safety net (it knows the run's secrets by now).
    const message =
      error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
    terminal.fail(`the suite failed (a bug, please report it): ${message}`);
    if (io.env.DEBUG?.includes('conformance') && error instanceof Error)
      terminal.fail(error.stack ?? '');
    return EXIT.notCarriedOut;
  }
}

async function run(io: CommandIo, terminal: Terminal): Promise<number> {
  let settings: Settings;
  let previous: PreviousReport | undefined;
  let prepared: PreparedTarget;
  let checks: StartedChecks | undefined;
  try {
    const loaded = loadSettings({ argv: io.argv, env: io.env, cwd: io.cwd, rules: activeRules });
    if (loaded.help) {
      terminal.out(helpText());
      return EXIT.ok;
    }
    settings = loaded.settings;
    terminal.protect(safetyNet(settings));
    if (settings.workflow?.verify) {
      const { verifyPackage } = await import('./verify.js');
      return await verifyPackage(settings.workflow.verify, settings.workflow.publicKey, terminal);
    }
    if (settings.openapi !== undefined) {
      const { openApiCommand } = await import('./openapi-command.js');
      return await openApiCommand({ ...settings, openapi: settings.openapi }, terminal, io.cwd);
    }
    previous = settings.compare ? loadPreviousReport(settings.compare) : undefined;
    checkReportDir(settings.reportDir);
    // Start-up order, which sets the time to the first request: vitest and its workers start at
    // once, while the target is prepared (the bundled reference started; a target elsewhere
    // probed and its credentials tried), their checks waiting for the configuration that this and
    // the dialect probe complete: the workers' start overlaps the target's. For the bundled
    // reference they used to start after the probe, when beside the reference's start they raised
    // the run's peak by ~24 MB; with the CLI's thread's memory held lower since, twenty
    // alternating pairs of full runs: 3.49 s against 3.55 s, peak 209.5 MB against 209.
    const preparing = prepareTarget(settings);
    if (settings.draftProfile === undefined) checks = startChecks(settings, io, terminal);
    prepared = await preparing;
  } catch (error) {
    // Said first; then the checks started meanwhile are called off.
    const known = error instanceof ConfigError || error instanceof RunAborted;
    if (known) terminal.fail(error.message);
    await checks?.callOff(error instanceof Error ? error : new Error(String(error)));
    if (known) return EXIT.notCarriedOut;
    throw error;
  }
  const net = safetyNet(settings, prepared.runConfig.controlToken);
  terminal.protect(net);
  try {
    if (settings.draftProfile !== undefined) {
      const draftSettings = { ...settings, draftProfile: settings.draftProfile };
      const { draftCommand } = await import('./draft-command.js');
      return await draftCommand(draftSettings, prepared, terminal, net, io.cwd);
    }
    // Before any check: does the target speak the profile's dialect where the document leaves it open?
    const probe = await probeDialect(prepared.runConfig);
    if (probe.mismatches.length > 0) {
      for (const mismatch of probe.mismatches) terminal.fail(mismatchLine(mismatch));
      const written = await writeProbeEvidence(probe, prepared, settings.reportDir, net, io.cwd);
      terminal.fail(probeStopLine(probe, prepared.targetInfo.profile, written));
      return EXIT.notCarriedOut;
    }
    if (probe.notes.length) prepared.notices.push(`dialect probe: ${probe.notes.join('; ')}`);
    carryProbe(prepared.runConfig, probe);
    // Started with the target's preparation, for every run but a draft profile's (ended above).
    if (checks === undefined) throw new Error('the checks were not started');
    const { runConfig, targetInfo } = prepared;
    announce(terminal, prepared, checks);

    const partnerMode = runConfig.controlUrl === undefined;
    // Partner mode: the pacer (in the checks' worker) reports what the key sent, for the floor.
    const tally = partnerMode ? listenForTally() : undefined;
    const startedAt = new Date();
    const run = await checks.go(runConfig);
    const finishedAt = new Date();
    const sent = tally?.latest();
    if (tally) writeDemand(tally.files(), PACKAGE_ROOT);
    tally?.stop();

    const { results, runErrors, replays } = mergeResults({
      rules: activeRules,
      only: settings.only,
      run,
      root: PACKAGE_ROOT,
      ...(checks.stopReason ? { stopReason: checks.stopReason } : {}),
      ...(settings.suites !== DEFAULT_SUITES
        ? { leftOutBySuites: bundledChecks(PACKAGE_ROOT, DEFAULT_SUITES) }
        : {}),
    });
    const decision = decideRun({
      results,
      runErrors,
      startedAt,
      certify: settings.certify,
      ...(settings.workflow?.waivers ? { waivers: settings.workflow.waivers } : {}),
    });
    const built = buildReport({
      target: runConfig.origin,
      targetInfo,
      startedAt,
      finishedAt,
      seed: runConfig.seed,
      numRuns: runConfig.numRuns,
      only: settings.only,
      decision,
      runErrors,
      ...(previous && settings.compare
        ? { changes: compareReports(previous, results, settings.compare) }
        : {}),
    });
    if (sent) built.partner_pacing = partnerPacing(sent, built.duration_ms);
    built.dialect_probe = {
      requests: probe.requests,
      duration_ms: probe.durationMs,
      ...(probe.notes.length ? { notes: probe.notes } : {}),
      ...(probe.seen.length ? { seen: probe.seen } : {}),
      evidence: probe.evidence,
    };
    const { report, reproductions } = await completeReport(built, settings, io.cwd, replays);
    try {
      await writeReports(report, settings.reportDir, net, reproductions);
      await afterReportsWritten(report, settings, io.cwd, net);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      terminal.fail(`could not write the reports to ${settings.reportDir} (${code})`);
      return EXIT.notCarriedOut;
    }
    printOutcome(terminal, report, settings.reportDir, io.cwd);
    return report.exit_code;
  } finally {
    // A run that ends before its checks (a bug of ours included) leaves no worker behind.
    await checks?.callOff(new RunAborted('the run ended before its checks'));
    await prepared.close();
  }
}

/** What is tested, with what, and what cannot be verified: before the checks start. */
function announce(
  terminal: Terminal,
  prepared: PreparedTarget,
  { filesAtATime, sideBySide }: StartedChecks,
): void {
  const { runConfig, targetInfo } = prepared;
  const reference = targetInfo.embedded_reference ? ' (bundled reference server)' : '';
  terminal.note(`target ${runConfig.origin}${reference}, profile ${targetInfo.profile}`);
  terminal.note(
    `capabilities: ${runConfig.capabilities.join(', ') || 'none'}; seed ${runConfig.seed}; ${casesPerProperty(runConfig)}; ${filesAtATime} check file${filesAtATime === 1 ? '' : 's'} at a time${sideBySide > filesAtATime ? ', its checks on accounts of their own side by side' : ''}`,
  );
  for (const notice of prepared.notices) terminal.note(notice);
}

function safetyNet(settings: Settings, controlToken = settings.controlToken): SafetyNet {
  return new SafetyNet({
    keyPrefix: settings.profile.dialect.keyPrefix,
    ...(controlToken ? { controlToken } : {}),
    ...(settings.partnerKey ? { partnerKey: settings.partnerKey } : {}),
  });
}
