import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Report, RuleResult } from '../../lib/reports/report-model.js';
import { curlFileOf } from '../../lib/reports/repro/reproduction.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { runCli, runCommand } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import { type DefectCase, defectCases } from './cases.js';
import { MATRIX_SEED } from './run-matrix.js';

/** How one form of a reproduction ended against one server: its exit code and its verdict line. */
interface Replayed {
  code: number | null;
  line: string;
}

export interface ReproRow extends DefectCase {
  /** The CLI's run of the rule alone against the defect: its exit code and the rule's verdict. */
  exit: number | null;
  verdict: string;
  /** The reproduction's file in the report directory, when the result has one. */
  file?: string;
  bad?: { mjs: Replayed; curl: Replayed };
  good?: { mjs: Replayed; curl: Replayed };
  /**
   * The rule caught, and both forms REPRODUCED (exit 1) against the defect
   * and NOT REPRODUCED (exit 0) against the correct reference.
   */
  ok: boolean;
  ms: number;
}

export interface ReproMatrix {
  seed: number;
  rows: ReproRow[];
  wallMs: number;
}

/** Defects at a time: each has its CLI run (a vitest worker) and two servers. */
export const REPRO_CONCURRENCY = 2;

/**
 * The reproduction matrix: for each defect of the defect matrix, the CLI
 * certifies its rule alone against a reference with that defect (control API,
 * live orders allowed, the defect matrix's seed); the rule's reproduction is
 * then run in both forms, `node repro/<RULE>.mjs` and `sh repro/<RULE>.sh`,
 * against that server and against a correct reference of its own. Every
 * server is in this process (port 0, in memory), closed when its row ends.
 */
export async function runReproMatrix(
  options: {
    defects?: readonly string[];
    concurrency?: number;
    onRow?: (done: number, total: number, row: ReproRow) => void;
  } = {},
): Promise<ReproMatrix> {
  const cases = defectCases(options.defects);
  const started = Date.now();
  const rows: ReproRow[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const item = cases[next++] as DefectCase;
      const row = await reproRow(item);
      rows.push(row);
      options.onRow?.(rows.length, cases.length, row);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, options.concurrency ?? REPRO_CONCURRENCY) }, worker),
  );
  const order = new Map(cases.map((c, index) => [c.defect, index]));
  rows.sort((a, b) => (order.get(a.defect) ?? 0) - (order.get(b.defect) ?? 0));
  return { seed: MATRIX_SEED, rows, wallMs: Date.now() - started };
}

async function reproRow(item: DefectCase): Promise<ReproRow> {
  const started = Date.now();
  const controlToken = randomBytes(24).toString('base64url');
  const secret = { CONTROL_TOKEN: controlToken };
  // The run places live orders where its checks need them; its reproductions ask for the same consent.
  const consent = { ...secret, CONFORMANCE_ALLOW_LIVE_ORDERS: '1' };
  const reportDir = emptyDir('repro-matrix-');
  const servers: RunningServer[] = [];
  const serve = async (defects: DefectCase['defect'][]) => {
    const server = await startServer({ controlToken, db: ':memory:', defects });
    servers.push(server);
    return server;
  };
  try {
    const bad = await serve([item.defect]);
    const cli = await runCli(
      [
        ...['--target', bad.origin, '--control-url', `${bad.origin}/__control`],
        ...['--allow-live-orders', '--only', item.rule, '--seed', String(MATRIX_SEED)],
        ...['--report-dir', reportDir],
      ],
      secret,
    );
    const result = resultOf(reportDir, item.rule);
    const base = { ...item, exit: cli.code, verdict: result?.verdict ?? 'no result' };
    const file = result?.reproduce?.file;
    if (!file || !existsSync(join(reportDir, file)))
      return { ...base, ok: false, ms: Date.now() - started };
    const good = await serve([]);
    // As the server's developers run them: only PATH (this Node on it) and the secret.
    const env = { ...consent, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const against = async (server: RunningServer) => ({
      mjs: replayed(
        await runCommand(process.execPath, [file, '--target', server.origin], reportDir, env),
      ),
      curl: replayed(
        await runCommand('sh', [curlFileOf(file)], reportDir, { ...env, TARGET: server.origin }),
      ),
    });
    const onBad = await against(bad);
    const onGood = await against(good);
    const ok =
      result?.verdict === item.caughtAs &&
      onBad.mjs.code === 1 &&
      onBad.curl.code === 1 &&
      onGood.mjs.code === 0 &&
      onGood.curl.code === 0;
    return { ...base, file, bad: onBad, good: onGood, ok, ms: Date.now() - started };
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
    await rm(reportDir, { recursive: true, force: true });
  }
}

function resultOf(reportDir: string, rule: string): RuleResult | undefined {
  const path = join(reportDir, 'report.json');
  if (!existsSync(path)) return undefined;
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  return report.results.find((r) => r.rule_id === rule);
}

/** The words a reproduction ends with (its verdict), else its last line. */
const VERDICT_LINE =
  /^(REPRODUCED|NOT REPRODUCED|DIFFERENT ANSWER|ANSWER OVER 2 MiB|CANNOT RUN|CANNOT TELL)\b.*$/gm;

function replayed(ran: { code: number | null; stdout: string; stderr: string }): Replayed {
  const out = `${ran.stdout}\n${ran.stderr}`;
  const lines = [...out.matchAll(VERDICT_LINE)].map((m) => m[0]);
  const line = lines.at(-1) ?? out.trim().split('\n').at(-1) ?? '';
  return { code: ran.code, line: line.length > 240 ? `${line.slice(0, 240)}…` : line };
}

/** The figures and every row that did not hold, as plain text. */
export function renderReproMatrix(matrix: ReproMatrix): string {
  const { rows } = matrix;
  const caught = rows.filter((r) => r.verdict === r.caughtAs);
  const withFile = caught.filter((r) => r.file);
  const count = (pick: (r: ReproRow) => boolean) => withFile.filter(pick).length;
  const lines = [
    `Reproduction matrix, seed ${matrix.seed}: ${rows.length} defects, ${(matrix.wallMs / 60_000).toFixed(1)} min`,
    `  caught by their rule (failed, or warning for SHOULD and DIALECT rules): ${caught.length}`,
    `  with a reproduction: ${withFile.length}`,
    `  .mjs REPRODUCED (exit 1) against the defect: ${count((r) => r.bad?.mjs.code === 1)}`,
    `  curl REPRODUCED (exit 1) against the defect: ${count((r) => r.bad?.curl.code === 1)}`,
    `  .mjs NOT REPRODUCED (exit 0) against the correct reference: ${count((r) => r.good?.mjs.code === 0)}`,
    `  curl NOT REPRODUCED (exit 0) against the correct reference: ${count((r) => r.good?.curl.code === 0)}`,
    `  all four: ${rows.filter((r) => r.ok).length} of ${rows.length}`,
  ];
  const failing = rows.filter((r) => !r.ok);
  if (failing.length > 0) lines.push('', 'Rows that did not hold:');
  for (const row of failing) {
    lines.push(`- ${row.defect} (${row.rule}): run exit ${row.exit}, ${row.verdict}`);
    if (!row.file) {
      lines.push('    no reproduction file');
      continue;
    }
    const show = (where: string, form: string, r: Replayed | undefined, want: number) => {
      if (r && r.code !== want)
        lines.push(`    ${form} against ${where}: exit ${r.code}: ${r.line}`);
    };
    show('the defect', '.mjs', row.bad?.mjs, 1);
    show('the defect', 'curl', row.bad?.curl, 1);
    show('the correct reference', '.mjs', row.good?.mjs, 0);
    show('the correct reference', 'curl', row.good?.curl, 0);
  }
  return lines.join('\n');
}
