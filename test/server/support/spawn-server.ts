import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  origin: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): { stdout: string; stderr: string };
}

/**
 * Starts `server/main.ts` as its own process (node --import tsx, so that a
 * signal reaches the server itself, not a wrapper) and waits for its
 * `listening` line.
 */
export async function spawnServer(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A developer's DATABASE_URL must not move these servers to PostgreSQL unasked.
    env: { ...process.env, CONTROL_TOKEN: '', DATABASE_URL: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const origin = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /^listening (http:\/\/\S+)\n/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', check);
    // No clock: the server either prints its line or exits (a busy machine only makes it later).
    child.once('exit', (code) => {
      reject(new Error(`exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return { child, origin, output: () => ({ stdout, stderr }) };
}

/** Runs `server/main.ts` to completion (for bad flags): exit code and output. */
export async function runServer(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONTROL_TOKEN: '', DATABASE_URL: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Sends a signal and waits for the process to exit; resolves with its exit code or signal. */
export async function stop(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return { code: child.exitCode, signal: child.signalCode };
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  child.kill(signal);
  const [code, sig] = await exited;
  return { code, signal: sig };
}
