import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyDir } from '../../support/temp-dir.js';

export const BIN = fileURLToPath(new URL('../../../bin/conformance.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process. */
  ms: number;
}

/**
 * Runs the CLI as a user would (through the npx shim), in an empty working
 * directory (no stray .env) with only the environment given, so a
 * developer's own CONTROL_TOKEN never leaks into a test.
 */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = emptyDir(),
): Promise<CliResult> {
  return runCommand(process.execPath, [BIN, ...args], cwd, env);
}

/**
 * A command in a directory, with only PATH and HOME from this environment (no stray
 * CONTROL_TOKEN), and `env` beside them: its exit code, output and wall time.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** `--suites` for one fixture scenario. */
export function fixtureSuites(scenario: string, files = '*.check.ts'): string[] {
  return ['--suites', join(FIXTURES, scenario, files)];
}
