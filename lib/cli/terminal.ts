import type { Writable } from 'node:stream';
import { escapeTerminal } from '../reports/escape-terminal.js';
import type { SafetyNet } from '../reports/safety-net.js';

/**
 * Everything the CLI prints goes through here, and through the safety net
 * once the run's secrets are known: a log is a report too. Results go to
 * stdout (CI captures them); notices and progress to stderr. Control
 * characters are made visible (escape-terminal.ts): a target's words reach
 * these lines, and must not rewrite them.
 */
export class Terminal {
  readonly stdout: Writable;
  readonly stderr: Writable & { isTTY?: boolean; columns?: number };
  #net: SafetyNet | undefined;

  constructor(stdout: Writable, stderr: Writable & { isTTY?: boolean; columns?: number }) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  protect(net: SafetyNet): void {
    this.#net = net;
  }

  /** A result line (stdout); the suite's own line breaks (help) are kept. */
  out(line = ''): void {
    this.stdout.write(`${this.#clean(line, true)}\n`);
  }

  /** A notice about the run (stderr): one line, whatever it quotes. */
  note(line: string): void {
    this.stderr.write(`conformance: ${this.#clean(line, false)}\n`);
  }

  /** The one line of a run that could not be carried out (stderr). */
  fail(line: string): void {
    // A profile with several problems gives one line each.
    for (const one of line.split('\n')) {
      this.stderr.write(`conformance: error: ${this.#clean(one, false)}\n`);
    }
  }

  #clean(text: string, keepNewlines: boolean): string {
    return escapeTerminal(this.#net ? this.#net.clean(text) : text, { keepNewlines });
  }
}
