import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../lib/config/settings.js';
import { replayBase } from '../../lib/reports/reproduce.js';
import { activeRules } from '../../rules/index.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { emptyDir } from '../support/temp-dir.js';
import { readReport } from './support/report-files.js';
import { runCli } from './support/run-cli.js';

const CONTROL_TOKEN = 'repro-control-token-0123456789';

/**
 * A directory where the suite is installed as a dependency (node_modules/partner-ordering-conformance
 * and its bin link), so that `npx partner-ordering-conformance` finds it there and asks no registry.
 */
function installedDir(): string {
  const dir = emptyDir();
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(process.cwd(), join(dir, 'node_modules', 'partner-ordering-conformance'));
  symlinkSync(
    '../partner-ordering-conformance/bin/conformance.js',
    join(dir, 'node_modules', '.bin', 'partner-ordering-conformance'),
  );
  return dir;
}

/** Runs a printed command the way a user pastes it: bash, a clean environment, only the secret set. */
function paste(command: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd: installedDir(),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('reproduce against a broken reference', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      controlToken: CONTROL_TOKEN,
      // Two found by plain checks, one by a generated property (its counterexample is replayed).
      defects: ['token-type-lowercase', 'token-expires-in-3700', 'idem-key-max-200'],
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("each failed rule's command, pasted in a clean shell, fails that rule again; curl holds no secret", async () => {
    const dir = join(emptyDir(), 'report');
    const first = await runCli(
      [
        '--target',
        server.origin,
        '--control-url',
        `${server.origin}/__control`,
        '--only',
        'TOKEN,IDEM',
        '--suites',
        join(process.cwd(), 'suites/{token,idem}/*.check.ts'),
        '--seed',
        '-5',
        '--report-dir',
        dir,
      ],
      { CONTROL_TOKEN },
    );
    expect(first.code, first.stderr).toBe(1);
    const failed = readReport(dir).results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => r.rule_id).sort()).toEqual(['IDEM-02', 'TOKEN-03', 'TOKEN-04']);
    expect(failed.find((r) => r.rule_id === 'IDEM-02')?.counterexample).toBeDefined();
    for (const result of failed) {
      const reproduce = result.reproduce;
      if (!reproduce) throw new Error(`${result.rule_id} has no reproduce`);
      expect(reproduce.command).not.toContain(CONTROL_TOKEN);
      expect(reproduce.command).toContain('"$CONTROL_TOKEN"');
      expect(reproduce.command).toContain('--seed=-5');
      // Portable: the package's command, no absolute path of the suite anywhere.
      expect(reproduce.command).toMatch(/ npx partner-ordering-conformance /);
      expect(reproduce.command).not.toMatch(/(^|[\s'"=])\//);
      expect(reproduce.curl.length).toBeGreaterThan(0);
      for (const line of reproduce.curl) {
        expect(line).not.toContain(CONTROL_TOKEN);
        // A made-up credential's prefix (`odp_at_`) may be there, never a credential.
        expect(line).not.toMatch(/_sk_[A-Za-z0-9]|odp_at_[A-Za-z0-9]|Basic [A-Za-z0-9+/]{8}/);
      }
      const again = join(emptyDir(), 'again');
      const code = await paste(`${reproduce.command} --report-dir ${again}`, { CONTROL_TOKEN });
      expect(code, result.rule_id).toBe(1);
      const replayed = readReport(again).results.filter((r) => r.verdict === 'failed');
      expect(replayed.map((r) => r.rule_id)).toEqual([result.rule_id]);
      // The same seed: the same shrunk counterexample.
      expect(replayed[0]?.counterexample?.value).toEqual(result.counterexample?.value);
    }
    // Four CLI runs one after another: no time budget a busy machine can reach (DEVELOPERS.md).
  }, 0);
});

describe('replay commands', () => {
  const base = {
    target: 'https://staging.example',
    controlUrl: 'https://staging.example/__control',
    seed: -2139925296,
    numRuns: 7,
    allowLiveOrders: true,
  };

  it('carry every setting, quote paths, and name secrets only as variables', () => {
    const command = replayBase({ ...base, partnerAccessKeyId: 'odp_test_ak_abc' });
    expect(command).toBe(
      `CONTROL_TOKEN="$CONTROL_TOKEN" PARTNER_ACCESS_KEY_ID=odp_test_ak_abc PARTNER_SECRET_KEY="$PARTNER_SECRET_KEY" npx partner-ordering-conformance --target https://staging.example --control-url https://staging.example/__control --allow-live-orders --seed=-2139925296 --num-runs 7`,
    );
  });

  it('parse back to the same settings (the negative seed included)', () => {
    const command = replayBase(base);
    const argv = command.split(' ').slice(command.split(' ').indexOf('--target'));
    const { settings } = loadSettings({
      argv,
      env: { CONTROL_TOKEN },
      cwd: emptyDir(),
      rules: activeRules,
    }) as { settings: { seed: number; numRuns: number; controlUrl?: string } };
    expect(settings.seed).toBe(base.seed);
    expect(settings.numRuns).toBe(7);
    expect(settings.controlUrl).toBe('https://staging.example/__control');
  });

  it('`--seed -5` and `--seed=-5` both set the seed', () => {
    for (const argv of [['--seed', '-5'], ['--seed=-5']]) {
      const loaded = loadSettings({ argv, env: {}, cwd: emptyDir(), rules: activeRules });
      expect(loaded.help ? undefined : loaded.settings.seed).toBe(-5);
    }
  });
});
