import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { SITUATION_NAMES } from '../../rules/client/index.js';
import { ConfigError } from '../config/config-error.js';
import { grade } from '../grading/grade.js';
import { Traffic } from '../grading/traffic.js';
import { clientOutcomeTitle, exercisedFigure, wordOf } from '../reports/client-outcome.js';
import { buildClientReport } from '../reports/client-report.js';
import type { Report, RunError } from '../reports/report-model.js';
import { SafetyNet } from '../reports/safety-net.js';
import { writeReports } from '../reports/write-reports.js';
import { choiceText } from '../sandbox/plan.js';
import { redactedExchanges } from '../sandbox/redacted.js';
import { type Sandbox, startSandbox } from '../sandbox/start.js';
import { HarnessError } from '../violations/harness-error.js';
import { type ClientOptions, clientHelpText, loadClientOptions } from './client-options.js';
import type { CommandIo } from './command-io.js';
import { checkReportDir } from './report-dir.js';
import { Terminal } from './terminal.js';

/** The key prefix of the bundled reference (and the default of any sandbox): what the nets look for. */
const KEY_PREFIX = 'odp';
/** After Ctrl-C the command gets SIGINT, then SIGTERM and SIGKILL if it does not end. */
const GRACE_MS = [2_000, 5_000];
/** How long the command's output is read after it ended. */
const DRAIN_MS = 1_000;

/**
 * `client [options] -- <command> [args…]`: grades a partner's client. The
 * sandbox starts with a fresh test account and key, the command runs with
 * TARGET_BASE_URL, PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY in its
 * environment (never on a command line), the layer in front of the sandbox
 * plays the situations and records every exchange, and when the command
 * ends its traffic is judged by the client rules and the client report is
 * written. Exit code: lib/reports/client-outcome.ts.
 */
export async function clientCommand(io: CommandIo): Promise<number> {
  const terminal = new Terminal(io.stdout, io.stderr);
  terminal.protect(new SafetyNet({ keyPrefix: KEY_PREFIX }));
  let options: ClientOptions;
  try {
    const loaded = loadClientOptions({ argv: io.argv, env: io.env, cwd: io.cwd });
    if (loaded.help) {
      terminal.out(clientHelpText(SITUATION_NAMES));
      return 0;
    }
    options = loaded.options;
    checkReportDir(options.reportDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    terminal.fail(error.message);
    return 2;
  }
  terminal.protect(new SafetyNet({ keyPrefix: KEY_PREFIX, ...secretOf(options) }));
  for (const notice of options.notices) terminal.note(notice);

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...(options.target ? { target: options.target } : {}),
      ...(options.controlUrl ? { controlUrl: options.controlUrl } : {}),
      ...(options.controlToken ? { controlToken: options.controlToken } : {}),
      timeoutMs: options.timeoutMs,
      choice: options.choice,
      retryAfterSeconds: options.retryAfterSeconds,
    });
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    terminal.fail(`the sandbox could not start: ${error.message}`);
    return 2;
  }
  const net = new SafetyNet({
    keyPrefix: KEY_PREFIX,
    controlToken: sandbox.controlToken,
    partnerKey: sandbox.key,
  });
  terminal.protect(net);
  const startedAt = new Date();
  terminal.note(
    `sandbox ${sandbox.target}${sandbox.embedded ? ' (bundled reference server)' : ''} behind ${sandbox.origin}; test key ${sandbox.key.accessKeyId}; situations ${choiceText(options.choice)}`,
  );
  terminal.note(`running: ${options.command.join(' ')}`);

  let ended: CommandEnd;
  try {
    ended = await runClient(options, sandbox, io, net);
  } finally {
    await sandbox.close();
  }
  if (ended.kind === 'not-started') {
    terminal.fail(`the command could not start: ${ended.message}`);
    return 2;
  }
  const finishedAt = new Date();

  // The sandbox not answering is never the client's doing: the grading was not carried out in full.
  const runErrors: RunError[] = sandbox.layer.exchanges
    .filter((ex) => ex.error !== undefined)
    .map((ex) => ({
      source: 'sandbox',
      message: `#${ex.id}: ${ex.error?.code ?? ''} ${ex.error?.message ?? ''}`.trim(),
    }));
  const traffic = new Traffic(sandbox.layer.exchanges, sandbox.key);
  const grades = grade(traffic, sandbox.director.plays);
  const report = buildClientReport({
    target: sandbox.target,
    targetInfo: {
      api_base_url: `${sandbox.target}/api/on-demand/v1`,
      embedded_reference: sandbox.embedded,
      control_url: sandbox.controlUrl,
      profile: 'reference dialect',
      capabilities: sandbox.features,
      partner_key: { access_key_id: sandbox.key.accessKeyId, mode: sandbox.key.mode },
    },
    startedAt,
    finishedAt,
    command: options.command,
    exitCode: ended.code,
    ...(ended.signal ? { signal: ended.signal } : {}),
    interrupted: ended.interrupted,
    situationsChosen: choiceText(options.choice),
    plays: sandbox.director.plays,
    grades,
    exchanges: redactedExchanges(sandbox.layer.exchanges, {
      keyPrefix: KEY_PREFIX,
      controlToken: sandbox.controlToken,
      keys: sandbox.keys,
    }),
    runErrors,
  });
  try {
    await writeReports(report, options.reportDir, net);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    terminal.fail(`could not write the reports to ${options.reportDir} (${code})`);
    return 2;
  }
  printGrading(terminal, report, options.reportDir);
  return report.exit_code;
}

function secretOf(options: ClientOptions): { controlToken?: string } {
  return options.controlToken ? { controlToken: options.controlToken } : {};
}

type CommandEnd =
  | { kind: 'ended'; code: number | null; signal?: string; interrupted: boolean }
  | { kind: 'not-started'; message: string; code: null; interrupted: false; signal?: undefined };

/**
 * Runs the partner's command with the sandbox's address and the key in its
 * environment (a child's environment is not on the process list; its
 * command line is, so the key is never put there). Its output is passed on
 * through the safety net: a client that prints its secret does not print
 * it into this run's log. Ctrl-C passes on to it as SIGINT.
 */
async function runClient(
  options: ClientOptions,
  sandbox: Sandbox,
  io: CommandIo,
  net: SafetyNet,
): Promise<CommandEnd> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(io.env)) {
    if (value === undefined || /^(CONTROL_|PARTNER_|TARGET_BASE_URL$)/.test(name)) continue;
    env[name] = value;
  }
  env.TARGET_BASE_URL = sandbox.origin;
  env.PARTNER_ACCESS_KEY_ID = sandbox.key.accessKeyId;
  env.PARTNER_SECRET_KEY = sandbox.key.secretKey;
  const [file, ...args] = options.command as [string, ...string[]];
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd: io.cwd, env, stdio: ['inherit', 'pipe', 'pipe'] });
  } catch (error) {
    return notStarted(error);
  }
  const outputs = [passOn(child.stdout, io.stdout, net), passOn(child.stderr, io.stderr, net)];
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', kill);
  let interrupted = false;
  const timers: NodeJS.Timeout[] = [];
  const onAbort = () => {
    interrupted = true;
    child.kill('SIGINT');
    timers.push(setTimeout(() => child.kill('SIGTERM'), GRACE_MS[0]).unref());
    timers.push(setTimeout(kill, GRACE_MS[1]).unref());
  };
  if (io.signal?.aborted) onAbort();
  io.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const end = await new Promise<CommandEnd>((resolve) => {
      child.once('error', (error) => resolve(notStarted(error)));
      child.once('exit', (code, signal) =>
        resolve({ kind: 'ended', code, ...(signal ? { signal } : {}), interrupted }),
      );
    });
    // A process the command left behind may hold its output open: what came is passed on, the rest not waited for.
    const drained = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, DRAIN_MS);
    await Promise.all(outputs);
    clearTimeout(drained);
    return end.kind === 'ended' ? { ...end, interrupted } : end;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    io.signal?.removeEventListener('abort', onAbort);
    process.off('exit', kill);
  }
}

function notStarted(error: unknown): CommandEnd {
  const code = (error as NodeJS.ErrnoException).code;
  const said =
    code === 'ENOENT'
      ? 'not found (ENOENT): is it installed and on the PATH?'
      : code === 'EACCES'
        ? 'not executable (EACCES)'
        : error instanceof Error
          ? error.message
          : String(error);
  return { kind: 'not-started', message: said, code: null, interrupted: false };
}

/** The child's output, line by line, through the safety net. */
function passOn(from: Readable | null, to: Writable, net: SafetyNet): Promise<void> {
  if (!from) return Promise.resolve();
  return new Promise((resolve) => {
    const lines = createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => to.write(`${net.clean(line)}\n`));
    lines.on('close', () => resolve());
  });
}

/** The grading's result lines: what was broken and why, the outcome, where the report is. */
function printGrading(terminal: Terminal, report: Report, dir: string): void {
  const count = (word: string) => report.results.filter((r) => wordOf(r) === word).length;
  const client = report.client;
  terminal.out(
    `Client rules: ${count('honoured')} honoured, ${count('broken')} broken, ${count('not_exercised')} not exercised${count('error') ? `, ${count('error')} not judged` : ''} (of ${report.results.length})`,
  );
  for (const result of report.results.filter((r) => wordOf(r) === 'broken')) {
    terminal.out(`  broken ${result.rule_id} ${result.title}`);
    terminal.out(`    ${result.reason ?? ''}`);
  }
  if ((client?.exchanges.length ?? 0) === 0) {
    terminal.note(
      'the command sent no request to the sandbox: does it read TARGET_BASE_URL, PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY?',
    );
  }
  const ending = client?.interrupted
    ? 'was interrupted'
    : client?.signal
      ? `ended on ${client.signal}`
      : `exited ${client?.exit_code}`;
  terminal.out(
    `The command ${ending}; ${(client?.exchanges.length ?? 0) + (client?.exchanges_omitted ?? 0)} requests to the sandbox.`,
  );
  terminal.out(
    `Outcome: ${clientOutcomeTitle(report.summary.outcome)} (${exercisedFigure(report.results)})`,
  );
  terminal.out(`Report: ${dir}/report.html`);
}
