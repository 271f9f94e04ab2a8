import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/start.js';
import { ROOT } from '../matrices/area-checks.js';
import { prepareRun, readRun } from '../matrices/run-conformance.js';
import { runSuitesOnTargets } from '../matrices/run-targets.js';
import { describePostgres, freshDatabase } from '../server/support/postgres.js';
import { type Balancer, roundRobin } from '../server/support/round-robin.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * A shared sandbox past one machine. Two reference instances on one
 * PostgreSQL database, behind a round-robin balancer (API and control API
 * alike, so consecutive requests of one check land on different instances),
 * certified by the whole suite as one server.
 */
describePostgres('two reference instances on PostgreSQL behind a balancer', (serverUrl) => {
  const controlToken = randomBytes(24).toString('base64url');
  const servers: RunningServer[] = [];
  let balancer: Balancer | undefined;
  let drop: (() => Promise<void>) | undefined;
  let cwd = '';

  beforeAll(async () => {
    const database = await freshDatabase(serverUrl);
    drop = database.drop;
    for (let i = 0; i < 2; i++)
      servers.push(await startServer({ databaseUrl: database.url, controlToken }));
    balancer = await roundRobin(servers.map((server) => server.origin));
    cwd = emptyDir('reference-pg-certify-');
  });
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(servers.map((server) => server.close()));
    await drop?.();
    if (cwd !== '') await rm(cwd, { recursive: true, force: true });
  });

  it('certify clean: every rule passes, none ends in error', async () => {
    const origin = balancer?.origin ?? '';
    const seed = Date.now() % 1_000_000_000;
    const prepared = await prepareRun('pg-pair', { origin, controlToken }, 'ALL', seed, cwd);
    const runs = await runSuitesOnTargets({
      root: ROOT,
      targets: [prepared.suiteTarget],
      maxWorkers: 2,
    });
    const collected = runs.get('pg-pair');
    if (!collected) throw new Error('the run collected nothing');
    const run = readRun(prepared, collected, 0);
    const verdicts = Object.values(run.verdicts);
    const errors = Object.entries(run.verdicts).filter(([, verdict]) => verdict === 'error');
    expect({ failed: run.failed, errors, problem: run.problem, seed }).toEqual({
      failed: [],
      errors: [],
      problem: undefined,
      seed,
    });
    expect(run.exitCode).toBe(0);
    // A run that judged nothing has not certified anything: most rules were judged and passed.
    const passed = verdicts.filter((verdict) => verdict === 'passed').length;
    expect(passed).toBeGreaterThan(verdicts.length / 2);
    // Both instances served the run.
    expect(balancer?.sent.every((count) => count > 100)).toBe(true);
    // The whole suite over two instances and a database takes about a minute on a quiet machine.
  });
});
