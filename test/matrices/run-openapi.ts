import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadProfile } from '../../lib/config/profile.js';
import { probeDialect } from '../../lib/probe/dialect-probe.js';
import { mismatchLine } from '../../lib/probe/judge.js';
import type { Dialect } from '../../lib/target/dialect.js';
import { mergeResults } from '../../lib/verdict/rule-results.js';
import { activeRules } from '../../rules/index.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { type ClientRun, generatedClientRun } from '../support/openapi-client.js';
import { type ExchangeVerdict, openApiJudge } from '../support/openapi-validate.js';
import { emptyDir } from '../support/temp-dir.js';
import { ROOT } from './area-checks.js';
import { type AreaRun, type PreparedRun, prepareRun, readRun } from './run-conformance.js';
import { dialectFile, SERVER_OPTIONS } from './run-dialects.js';
import { comparable, leaves } from './run-drafts.js';
import { MATRIX_SEED } from './run-matrix.js';
import { runSuitesOnTargets } from './run-targets.js';

const exec = promisify(execFile);

/**
 * The OpenAPI matrix: for the reference and each dialect of test/dialects/,
 * the reference server speaking it serves its OpenAPI document
 * (`GET /openapi.json`); `--draft-profile-from` drafts a profile back from
 * that document (through the CLI, the dialect probe included); the draft is
 * compared field by field with the dialect's own profile; the whole suite
 * runs against the server with the draft, with no hand edit; every answer
 * the run recorded is judged against the document by Prism's validators;
 * and a client generated from the document by openapi-typescript, with
 * openapi-fetch, is type-checked and run against the server.
 */
export interface OpenApiRun {
  dialect: string;
  /** Every field of the dialect (money compared place by place), and those the draft got right. */
  fields: number;
  right: number;
  wrong: string[];
  /** The CLI's `--draft-profile-from` exit code and output. */
  draftExit: number;
  draftOutput: string;
  run: AreaRun;
  counts: Record<string, number>;
  /** What Prism said of each recorded exchange, by kind. */
  judged: Record<ExchangeVerdict['kind'], number>;
  /** Answers to valid requests that the document does not describe (must stay empty). */
  violations: string[];
  client: ClientRun;
}

export async function runOpenApiMatrix(
  names: readonly string[],
  concurrency = 3,
): Promise<OpenApiRun[]> {
  const dir = emptyDir('openapi-matrix-');
  const servers: RunningServer[] = [];
  const jobs: {
    name: string;
    server: RunningServer;
    controlToken: string;
    document: Record<string, unknown>;
    wanted: Dialect;
    drafted?: Dialect;
    draftExit: number;
    draftOutput: string;
    prepared?: PreparedRun;
    problem?: string;
    client?: ClientRun;
  }[] = [];
  try {
    for (const name of names) {
      const controlToken = randomBytes(24).toString('base64url');
      const file = name === 'reference' ? undefined : dialectFile(name);
      const server = await startServer({
        controlToken,
        db: ':memory:',
        ...SERVER_OPTIONS[name],
        ...(file === undefined ? {} : { profile: JSON.parse(readFileSync(file, 'utf8')) }),
      });
      servers.push(server);
      const document = (await (await fetch(`${server.origin}/openapi.json`)).json()) as Record<
        string,
        unknown
      >;
      const wanted = file
        ? loadProfile(file, '--profile', dir).dialect
        : loadProfile('reference', '--profile', ROOT).dialect;
      const documentFile = join(dir, `${name}.openapi.json`);
      writeFileSync(documentFile, JSON.stringify(document));
      const draftFile = join(dir, `${name}.draft.json`);
      const draft = await cli(
        [
          '--target',
          server.origin,
          '--control-url',
          `${server.origin}/__control`,
          '--draft-profile-from',
          documentFile,
          '--draft-profile',
          draftFile,
        ],
        controlToken,
        dir,
      );
      const job: (typeof jobs)[number] = {
        name,
        server,
        controlToken,
        document,
        wanted,
        draftExit: draft.code,
        draftOutput: draft.output,
      };
      jobs.push(job);
      if (draft.code !== 0) {
        job.problem = `--draft-profile-from exited ${draft.code}: ${draft.output}`;
        continue;
      }
      job.drafted = loadProfile(draftFile, '--profile', dir).dialect;
      const prepared = await prepareRun(
        `${name} with the profile drafted from its OpenAPI`,
        { origin: server.origin, controlToken },
        'ALL',
        MATRIX_SEED,
        dir,
        ['--profile', draftFile],
      );
      const probe = await probeDialect(prepared.suiteTarget.runConfig);
      if (probe.mismatches.length > 0) {
        job.problem = probe.mismatches.map(mismatchLine).join('\n');
        continue;
      }
      job.prepared = prepared;
      job.client = await clientOf(server.origin, controlToken, document, job.drafted);
    }
    const runs = await runSuitesOnTargets({
      root: ROOT,
      targets: jobs.flatMap((j) => (j.prepared ? [j.prepared.suiteTarget] : [])),
      maxWorkers: concurrency,
    });
    const out: OpenApiRun[] = [];
    for (const job of jobs) {
      const mine = job.drafted ? new Map(leaves(comparable(job.drafted))) : new Map();
      const all = leaves(comparable(job.wanted));
      const wrong = all.filter(([f, v]) => JSON.stringify(mine.get(f)) !== JSON.stringify(v));
      const collected = job.prepared ? runs.get(job.prepared.suiteTarget.name) : undefined;
      const run: AreaRun =
        job.prepared && collected
          ? readRun(job.prepared, collected, 0)
          : {
              area: 'ALL',
              exitCode: 2,
              verdicts: {},
              failed: [],
              durationMs: 0,
              problem: job.problem ?? 'not run',
            };
      const counts: Record<string, number> = {};
      for (const verdict of Object.values(run.verdicts))
        counts[verdict] = (counts[verdict] ?? 0) + 1;
      const judged = {
        valid: 0,
        violation: 0,
        'invalid-request': 0,
        'no-operation': 0,
        'not-judged': 0,
      };
      const violations: string[] = [];
      if (job.prepared && collected) {
        const judge = await openApiJudge(job.document, job.wanted.keyPrefix);
        const { results } = mergeResults({
          rules: activeRules,
          only: job.prepared.only,
          run: collected,
          root: ROOT,
        });
        for (const result of results) {
          for (const exchange of result.evidence ?? []) {
            const verdict = await judge(exchange);
            judged[verdict.kind]++;
            if (verdict.kind === 'violation')
              violations.push(
                `${result.rule_id} ${exchange.request.method} ${exchange.request.url} → ${exchange.response?.status}: ${verdict.messages.join('; ')}`,
              );
          }
        }
      }
      out.push({
        dialect: job.name,
        fields: all.length,
        right: all.length - wrong.length,
        wrong: wrong.map(([f, v]) => `${f}: ${JSON.stringify(mine.get(f))} → ${JSON.stringify(v)}`),
        draftExit: job.draftExit,
        draftOutput: job.draftOutput,
        run,
        counts,
        judged,
        violations,
        client: job.client ?? {
          typecheck: { code: -1, output: job.problem ?? 'not run' },
          run: { code: -1, output: 'not run' },
        },
      });
    }
    return out;
  } finally {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The CLI (bin/conformance.js), the control token in its environment only. */
async function cli(
  argv: string[],
  controlToken: string,
  cwd: string,
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await exec(
      process.execPath,
      [join(ROOT, 'bin', 'conformance.js'), ...argv],
      {
        cwd,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          CONTROL_TOKEN: controlToken,
        },
      },
    );
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : 1,
      output: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    };
  }
}

/** A test key of a fresh sandbox account (control API), and the generated client run with it. */
async function clientOf(
  origin: string,
  controlToken: string,
  document: object,
  dialect: Dialect,
): Promise<ClientRun> {
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${origin}/__control${path}`, {
      method: 'POST',
      headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  const account = await control('/accounts', {});
  const key = await control(`/accounts/${String(account.id)}/keys`, { mode: 'test' });
  const products = (account.products ?? []) as {
    sku: string;
    min_quantity: number;
    ships_by_freight: boolean;
  }[];
  const product = products.find((p) => !p.ships_by_freight);
  if (!product) throw new Error('the sandbox account has no product that ships without freight');
  return generatedClientRun({
    document,
    dialect,
    origin,
    key: { accessKeyId: String(key.access_key_id), secretKey: String(key.secret_key) },
    sku: product.sku,
    quantity: product.min_quantity,
  });
}
