import type { Writable } from 'node:stream';
import type { SafetyNet } from '../reports/safety-net.js';

/**
 * Everything the CLI prints goes through here, and through the safety net
 * once the run's secrets are known: a log is a report too. Results go to
 * stdout (CI captures them); notices and progress to stderr.
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

  /** A result line (stdout). */
  out(line = ''): void {
    this.stdout.write(`${this.#clean(line)}\n`);
  }

  /** A notice about the run (stderr). */
  note(line: string): void {
    this.stderr.write(`conformance: ${this.#clean(line)}\n`);
  }

  /** The one line of a run that could not be carried out (stderr). */
  fail(line: string): void {
    // A profile with several problems gives one line each.
    for (const one of line.split('\n')) {
      this.stderr.write(`conformance: error: ${this.#clean(one)}\n`);
    }
  }

  #clean(text: string): string {
    return this.#net ? this.#net.clean(text) : text;
  }
}
