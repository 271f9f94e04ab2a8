import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { areaChecksGlob, ROOT } from './area-checks.js';

const BIN = join(ROOT, 'bin/conformance.js');

/** The part of report.json (target contract section 4) the matrix reads. */
const ReportSchema = z.object({
  exit_code: z.number().int(),
  results: z.array(z.object({ rule_id: z.string(), area: z.string(), verdict: z.string() })),
});

export interface AreaRun {
  area: string;
  exitCode: number | null;
  /** Verdict of every rule of the area, by rule id. */
  verdicts: Record<string, string>;
  /** Rule ids whose verdict is `failed`, sorted. */
  failed: string[];
  durationMs: number;
  /** Set when the run did not produce a readable report: the last lines it wrote. */
  problem?: string;
}

export interface ConformanceTarget {
  origin: string;
  controlToken: string;
}

/** What one run covers: the checks of one area, or (`'ALL'`) the whole bundled suite. */
export type RunScope = string | 'ALL';

/**
 * One conformance run of one area (or of every area) against `target`, as a user runs it: the
 * CLI in a child process (through the npx shim), the control token in the
 * environment only (flags show in `ps`), a fixed seed so that every run of
 * the matrix sends the same generated inputs. The working directory is an
 * empty temporary one, so a developer's `.env` cannot change the run.
 */
export async function runArea(
  target: ConformanceTarget,
  area: RunScope,
  seed: number,
): Promise<AreaRun> {
  const dir = await mkdtemp(join(tmpdir(), 'fault-matrix-'));
  const started = Date.now();
  try {
    const args = [
      BIN,
      '--target',
      target.origin,
      '--control-url',
      `${target.origin}/__control`,
      ...(area === 'ALL' ? [] : ['--only', area, '--suites', areaChecksGlob(area)]),
      '--seed',
      String(seed),
      '--report-dir',
      join(dir, 'report'),
      // The reference places nothing real; probation and mode checks need live orders.
      '--allow-live-orders',
    ];
    const { code, output } = await spawnCollecting(args, dir, {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CONTROL_TOKEN: target.controlToken,
    });
    const durationMs = Date.now() - started;
    const report = await readReport(join(dir, 'report', 'report.json'));
    if (!report) {
      return { area, exitCode: code, verdicts: {}, failed: [], durationMs, problem: tail(output) };
    }
    const inArea = report.results.filter((r) => area === 'ALL' || r.area === area);
    return {
      area,
      exitCode: code,
      verdicts: Object.fromEntries(inArea.map((r) => [r.rule_id, r.verdict])),
      failed: inArea
        .filter((r) => r.verdict === 'failed')
        .map((r) => r.rule_id)
        .sort(),
      durationMs,
      ...(code === 0 || code === 1 ? {} : { problem: tail(output) }),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnCollecting(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      // Only the end is ever shown; keep memory flat across a hundred runs.
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function readReport(path: string): Promise<z.infer<typeof ReportSchema> | undefined> {
  try {
    const parsed = ReportSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The last lines a run wrote (the CLI never writes a secret: its safety net masks them). */
function tail(output: string): string {
  return output.trim().split('\n').slice(-12).join('\n');
}
