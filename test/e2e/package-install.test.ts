import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/reports/report-model.js';
import { startServer } from '../../server/start.js';
import { type CliResult, runCommand } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import { startReferenceTarget } from './support/reference-target.js';

/**
 * The suite installs like any npm tool. `npm pack` (its prepack
 * compiles the suite into dist/), `npm install ./<tarball>` into an empty
 * project, then `npx partner-ordering-conformance` there: against the
 * embedded reference, and against a started reference named only in the
 * project's `.env`. Reports land in the project's directory.
 *
 * Offline: the project gets a lockfile made from this repository's (its
 * runtime dependencies, with their integrity), so npm takes every package
 * from its cache, which `npm ci` has filled, and asks no registry.
 * No time budget: packing and installing take what the machine gives them.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  engines: Record<string, string>;
  bin: Record<string, string>;
};
// vitest: a timeout of 0 is none.
const NO_TIME_BUDGET = 0;

/** A lockfile for a project depending on the tarball only, from this repository's. */
function projectLock(tarball: string): unknown {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'empty-project', dependencies: { [PACKAGE.name]: spec } },
    [`node_modules/${PACKAGE.name}`]: {
      version: PACKAGE.version,
      resolved: spec,
      dependencies: PACKAGE.dependencies,
      engines: PACKAGE.engines,
      bin: PACKAGE.bin,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path.startsWith('node_modules/') && !entry.dev) packages[path] = entry;
  }
  return { name: 'empty-project', lockfileVersion: 3, requires: true, packages };
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('the package, packed and installed into an empty project', () => {
  const project = emptyDir('package-install-');
  // The commands' temporary folder is the test's too: the installed copy's module cache (one per
  // copy of the suite, lib/runner/check-run-options.ts) then goes with the test's folders.
  const TEMP = { TMPDIR: emptyDir('package-tmp-') };
  const installed = join(project, 'node_modules', PACKAGE.name);
  let install: CliResult;

  beforeAll(async () => {
    const packed = await runCommand(
      'npm',
      ['pack', '--json', '--pack-destination', project],
      ROOT,
      TEMP,
    );
    expect(packed.code, packed.stderr).toBe(0);
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'empty-project', private: true, dependencies: { [PACKAGE.name]: `file:${filename}` } }, null, 2)}\n`,
    );
    writeFileSync(join(project, 'package-lock.json'), JSON.stringify(projectLock(filename)));
    install = await runCommand(
      'npm',
      ['install', `./${filename}`, '--offline', '--no-audit', '--no-fund'],
      project,
      TEMP,
    );
  }, NO_TIME_BUDGET);

  test('installs offline from the npm cache', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(existsSync(join(project, 'node_modules', '.bin', 'partner-ordering-conformance'))).toBe(
      true,
    );
  });

  test('ships compiled JavaScript and no TypeScript to transform', () => {
    const files = filesBelow(installed);
    expect(files).toContain('dist/lib/cli/main.js');
    expect(files).toContain('dist/suites/token/token-request.check.js');
    // And each folder's check files as one group, which a run a file at a time runs (scripts/compile.mjs).
    expect(files).toContain('dist/suites/token/token.group.js');
    expect(files).toContain('dist/config/reference.json');
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
    // Only what it needs: no sources, tests, benchmarks or scripts.
    const top = [...new Set(files.map((file) => file.split('/')[0]))].sort();
    expect(top).toEqual(
      [
        '.env.example',
        'README.md',
        'bin',
        'dist',
        'docs',
        'examples',
        'package.json',
        'reports',
      ].sort(),
    );
  });

  test(
    'runs against the embedded reference and writes its reports in the caller’s directory',
    async () => {
      const result = await runCommand(
        'npx',
        ['--no', '--', 'partner-ordering-conformance', '--only', 'TOKEN-01,ACCT-01'],
        project,
        TEMP,
      );
      expect(result.code, result.stderr).toBe(0);
      const reports = readdirSync(join(project, 'reports'));
      expect(reports).toHaveLength(1);
      const report = readReport(join(project, 'reports', reports[0] as string));
      expect(report.target_info.embedded_reference).toBe(true);
      expect(report.summary).toMatchObject({ passed: 2, failed: 0, error: 0 });
      // The reports name the check files by their sources, as a run from the repository does.
      expect(report.results.find((r) => r.rule_id === 'TOKEN-01')?.file).toMatch(
        /^suites\/token\/.+\.check\.ts$/,
      );
    },
    NO_TIME_BUDGET,
  );

  test(
    "runs against a target named in the caller's .env",
    async () => {
      const controlToken = randomBytes(24).toString('base64url');
      const server = await startServer({ port: 0, controlToken, db: ':memory:' });
      afterAll(() => server.close());
      const origin = server.origin.replace(/\/+$/, '');
      writeFileSync(
        join(project, '.env'),
        [
          `TARGET_BASE_URL=${origin}`,
          `CONTROL_URL=${origin}/__control`,
          `CONTROL_TOKEN=${controlToken}`,
          '',
        ].join('\n'),
      );
      const result = await runCommand(
        'npx',
        [
          '--no',
          '--',
          'partner-ordering-conformance',
          '--only',
          'TOKEN,ACCT-01',
          '--report-dir',
          'out',
        ],
        project,
        TEMP,
      );
      expect(result.code, result.stderr).toBe(0);
      const report = readReport(join(project, 'out'));
      expect(report.target_info.embedded_reference).toBe(false);
      expect(report.target_info.api_base_url.startsWith(origin)).toBe(true);
      // The control token came from .env: every selected rule was verified, none not_verifiable.
      expect(report.summary.not_verifiable).toBe(0);
      expect(report.summary.failed).toBe(0);
      expect(report.summary.passed).toBeGreaterThan(2);
      expect(`${result.stdout}${result.stderr}`).not.toContain(controlToken);
    },
    NO_TIME_BUDGET,
  );

  test(
    "a failed rule's reproduce.command re-runs it where the package is installed, and its repro runs with plain node",
    async () => {
      // Closed by the test's own hook: the file's afterAll is the other test's.
      const { origin, controlToken } = await startReferenceTarget(['cancel-twice']);
      const withSecret = (command: string, args: readonly string[], cwd: string) =>
        runCommand(command, args, cwd, { ...TEMP, CONTROL_TOKEN: controlToken });
      // .env of the test before: no stray target; this run names its own.
      writeFileSync(join(project, '.env'), '');
      const first = await withSecret(
        'npx',
        [
          '--no',
          '--',
          'partner-ordering-conformance',
          ...['--target', origin, '--control-url', `${origin}/__control`],
          ...['--only', 'CANCEL-05', '--report-dir', 'failing'],
        ],
        project,
      );
      expect(first.code, first.stderr).toBe(1);
      const result = readReport(join(project, 'failing')).results.find(
        (r) => r.rule_id === 'CANCEL-05',
      );
      const command = result?.reproduce?.command ?? '';
      expect(command).toMatch(/ npx partner-ordering-conformance /);
      expect(command).not.toMatch(/(^|[\s'"=])\//);
      const again = await withSecret('bash', ['-c', `${command} --report-dir again`], project);
      expect(again.code, again.stderr).toBe(1);
      expect(
        readReport(join(project, 'again'))
          .results.filter((r) => r.verdict === 'failed')
          .map((r) => r.rule_id),
      ).toEqual(['CANCEL-05']);
      // The standalone reproduction the installed package wrote, run alone with plain node.
      const alone = emptyDir('package-repro-');
      writeFileSync(
        join(alone, 'CANCEL-05.mjs'),
        readFileSync(join(project, 'failing', 'repro', 'CANCEL-05.mjs')),
      );
      const replayed = await withSecret(process.execPath, ['CANCEL-05.mjs'], alone);
      expect(replayed.stdout, replayed.stderr).toMatch(/^REPRODUCED: CANCEL-05 /m);
      expect(replayed.code).toBe(1);
    },
    NO_TIME_BUDGET,
  );
});
