import { escapeTerminal } from '../reports/escape-terminal.js';
import { SafetyNet } from '../reports/safety-net.js';
import { EXIT } from '../verdict/words.js';
import { runCommand } from './run-command.js';

/**
 * `npm run conformance` / `partner-ordering-conformance`. Ctrl-C once
 * cancels the run and still writes the reports; twice quits at once.
 * runCommand reports its own failures; what escapes it is a bug of the
 * suite: one line, exit 2, no stack trace.
 */
// A reader that went away (`| head -1`, a closed CI log) makes every later write fail with EPIPE.
// That is no failure of the run: the exit code stays the verdict's and the reports are still
// written. Without a listener, Node would end the process on the first such error.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  process.stderr.write('\nconformance: interrupted; writing the reports (Ctrl-C again to quit)\n');
  interrupt.abort();
});

let code: number;
try {
  code = await runCommand({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    signal: interrupt.signal,
  });
} catch (error) {
  const net = new SafetyNet({ keyPrefix: 'odp' });
  const message =
    error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  process.stderr.write(
    `conformance: error: the suite failed (a bug, please report it): ${escapeTerminal(net.clean(message))}\n`,
  );
  code = EXIT.notCarriedOut;
}
// vitest and undici may keep handles open; the run is over.
process.exit(code);
