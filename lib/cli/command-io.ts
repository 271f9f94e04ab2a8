import type { Writable } from 'node:stream';

/** What a command of the CLI is given: its arguments, environment, directory, streams and Ctrl-C. */
export interface CommandIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean; columns?: number };
  /** Ctrl-C: the run is cancelled, reports are still written. */
  signal?: AbortSignal;
}
