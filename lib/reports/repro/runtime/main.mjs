// The command line of repro/<RULE>.mjs, and its node:test form. Exit 1 only with REPRODUCED;
// every failure of the reproduction's own (a bad flag, no credential, an unreachable target, a bug
// of ours) is exit 2 and says why.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EXIT, judgeReplay } from './judge.mjs';
import { CannotRun, replayPlan } from './replay.mjs';
import { visible } from './visible.mjs';

function parseArgs(argv) {
  const out = { verbose: false, help: false, allowLiveOrders: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new CannotRun(`${name} needs a value (see --help)`);
      return next;
    };
    if (name === '--target') out.target = value();
    else if (name === '--control-url') out.controlUrl = value();
    else if (name === '--verbose') out.verbose = true;
    else if (name === '--allow-live-orders') out.allowLiveOrders = true;
    else if (name === '--help' || name === '-h') out.help = true;
    else throw new CannotRun(`unknown argument ${arg} (see --help)`);
  }
  return out;
}

/**
 * Where to replay: `--target` (under `node --test`, TARGET_BASE_URL), else the run's. The control
 * API follows the target (the same path on the new origin) when it shared the run's target's
 * origin, unless `--control-url` (CONTROL_URL) says otherwise.
 */
function resolve(REPRO, args, env) {
  const given = args.target ?? env.TARGET_BASE_URL;
  const target = origin(given ?? REPRO.target, '--target');
  if (!target) {
    throw new CannotRun(
      "no target: the run tested the suite's bundled reference server, whose port closed with the run; pass --target URL of a running server",
    );
  }
  let control = args.controlUrl ?? env.CONTROL_URL;
  if (!control && REPRO.control) {
    control = REPRO.control.followsTarget ? target + REPRO.control.path : REPRO.control.url;
  }
  const live = /^(1|true|yes|on)$/i.test(env.CONFORMANCE_ALLOW_LIVE_ORDERS ?? '');
  return {
    target,
    control: control ? origin(control, '--control-url', true) : undefined,
    verbose: args.verbose,
    allowLiveOrders: args.allowLiveOrders || live,
    controlToken: env.CONTROL_TOKEN,
  };
}

/** An http(s) URL without its trailing slash (`keepPath`: the control API's path too). */
function origin(text, flag, keepPath = false) {
  if (!text) return undefined;
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new CannotRun(`${flag} is not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CannotRun(`${flag} must be an http or https URL: ${text}`);
  return keepPath ? `${url.origin}${url.pathname.replace(/\/$/, '')}` : url.origin;
}

function usage(REPRO) {
  const env = REPRO.env.map((name) => `${name}=…`).join(' ');
  return [
    `${REPRO.rule.id} ${REPRO.rule.title}`,
    `usage: ${env ? `${env} ` : ''}node ${REPRO.rule.id}.mjs [--target URL] [--control-url URL] [--allow-live-orders] [--verbose]`,
    `  --target             the API's origin (default: ${REPRO.target ?? "none: the run's bundled reference is gone"})`,
    ...(REPRO.control
      ? [
          `  --control-url        the control API (default: ${REPRO.control.followsTarget ? `the target's ${REPRO.control.path}` : REPRO.control.url})`,
        ]
      : []),
    '  --allow-live-orders  allow orders with a live key (real orders; or CONFORMANCE_ALLOW_LIVE_ORDERS=1)',
    '  --verbose            print each request and answer, headers included (secrets redacted)',
    'exit 1: REPRODUCED, 0: NOT REPRODUCED, 2: could not tell or could not run (it says why)',
  ].join('\n');
}

/** Runs the replay and judges it: the lines to print and the exit code. */
export async function reproduce(REPRO, argv, env, log) {
  try {
    const args = parseArgs(argv);
    if (args.help) return { exit: EXIT.notReproduced, lines: [usage(REPRO)] };
    const options = resolve(REPRO, args, env);
    const { answers, values, secrets } = await replayPlan(REPRO, options, log);
    return judgeReplay(REPRO, answers, values, secrets);
  } catch (error) {
    if (error instanceof CannotRun)
      return { exit: EXIT.cannot, lines: [`CANNOT RUN: ${error.message}`] };
    return {
      exit: EXIT.cannot,
      lines: [`CANNOT RUN: the reproduction failed: ${error?.stack ?? error}`],
    };
  }
}

/** The file's entry: a node:test test under `node --test`, else the command. */
export async function main(REPRO, moduleUrl) {
  if (process.env.NODE_TEST_CONTEXT) {
    // `node --test repro/`: one test per reproduction; a fixed server turns it green.
    const { test } = await import('node:test');
    const name = `${REPRO.rule.id} ${REPRO.rule.title}`;
    if (REPRO.judge.length === 0) {
      // A harness error of the run: nothing of the target's was judged, nothing is to judge again.
      test(
        name,
        {
          skip: `the run ended this check in error, judging nothing (${REPRO.reason ?? 'no reason given'})`,
        },
        () => undefined,
      );
      return;
    }
    test(name, async () => {
      const { exit, lines } = await reproduce(REPRO, [], process.env, () => undefined);
      if (exit !== EXIT.notReproduced) throw new Error(visible(lines.join('\n')));
    });
    return;
  }
  const script = process.argv[1];
  if (!script || !sameFile(script, moduleUrl)) return;
  const failed = (error) => {
    console.log(visible(`CANNOT RUN: the reproduction failed: ${error?.message ?? error}`));
    process.exit(EXIT.cannot);
  };
  process.on('uncaughtException', failed);
  process.on('unhandledRejection', failed);
  const { exit, lines } = await reproduce(REPRO, process.argv.slice(2), process.env, (line) =>
    console.error(visible(line)),
  );
  for (const line of lines) console.log(line.includes('\n') ? line : visible(line));
  process.exitCode = exit;
}

/** Whether `node FILE` ran this very file (imported by another module, it only defines). */
function sameFile(script, moduleUrl) {
  try {
    return pathToFileURL(realpathSync(script)).href === moduleUrl;
  } catch {
    return false;
  }
}
