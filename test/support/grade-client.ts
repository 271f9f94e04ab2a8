import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { clientCommand } from '../../lib/cli/client-command.js';
import type { Report } from '../../lib/reports/report-model.js';
import { emptyDir } from './temp-dir.js';

export interface Graded {
  code: number;
  stdout: string;
  stderr: string;
  dir: string;
  /** report.json; undefined when none was written. */
  report: Report | undefined;
}

/**
 * `client [args] -- command…` in this process, as the CLI runs it (the
 * bundled reference, the layer, the command as a child process), with only
 * PATH and HOME of this environment and `env` beside them. Several can run
 * at once: each has its own sandbox, ports and report directory.
 */
export async function gradeClient(
  args: readonly string[],
  command: readonly string[],
  env: Record<string, string> = {},
): Promise<Graded> {
  const dir = join(emptyDir(), 'report');
  const out = sink();
  const err = sink();
  const code = await clientCommand({
    argv: ['--report-dir', dir, ...args, '--', ...command],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: emptyDir(),
    stdout: out.stream,
    stderr: err.stream,
  });
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  } catch {
    report = undefined;
  }
  return { code, stdout: out.text(), stderr: err.text(), dir, report };
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** The rules a client report found broken. */
export function brokenRules(report: Report | undefined): string[] {
  return (report?.results ?? [])
    .filter((r) => r.client?.outcome === 'broken')
    .map((r) => r.rule_id);
}
