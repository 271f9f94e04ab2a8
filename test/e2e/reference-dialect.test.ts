import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../engine/support/run-cli.js';
import { areaChecksGlob, ROOT } from '../matrices/area-checks.js';
import { dialectFile } from '../matrices/run-dialects.js';
import { type Spawned, spawnServer, stop } from '../server/support/spawn-server.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * The reference server speaking a profile, as a user starts it: `npm run reference -- --profile
 * FILE` (here initech: 202 on creation, 204 on cancel, money as {value, ccy},
 * its own quote body, a {entries, more} envelope) and the CLI with the same
 * profile certify the order and cancel rules clean; the CLI without it stops
 * at the dialect probe (exit 2, one line per mismatch). The whole suite in
 * every dialect is the dialect matrix (test/matrices/dialects.test.ts).
 */
const PROFILE = dialectFile('initech');
const token = randomBytes(24).toString('base64url');
/** The check files of the ORDER and CANCEL areas only, as one glob. */
const SUITES = join(
  ROOT,
  `{${['ORDER', 'CANCEL']
    .flatMap((area) =>
      areaChecksGlob(area)
        .slice(ROOT.length)
        .replace(/\.check\.ts$/, '')
        .replace(/^\{|\}$/g, '')
        .split(','),
    )
    .join(',')}}.check.ts`,
);
let server: Spawned;

beforeAll(async () => {
  const file = join(emptyDir('reference-dialect-'), 'control-token');
  writeFileSync(file, token);
  server = await spawnServer([
    '--port',
    '0',
    '--db',
    ':memory:',
    '--control-token-file',
    file,
    '--profile',
    PROFILE,
  ]);
});
afterAll(async () => {
  if (server) await stop(server.child, 'SIGTERM');
});

const run = (flags: string[]) =>
  runCli(
    [
      '--target',
      server.origin,
      '--control-url',
      `${server.origin}/__control`,
      '--only',
      'ORDER,CANCEL',
      '--suites',
      SUITES,
      '--allow-live-orders',
      '--seed',
      '1',
      '--report-dir',
      join(emptyDir('reference-dialect-reports-'), 'r'),
      ...flags,
    ],
    { CONTROL_TOKEN: token },
  );

describe('the reference started with a profile', () => {
  it('with the same profile: no failure, no error (exit 0)', async () => {
    const result = await run(['--profile', PROFILE]);
    expect(result.code, result.stderr).toBe(0);
    const summary = /passed (\d+) {2}failed (\d+) .*not_verifiable (\d+) .*error (\d+)/.exec(
      result.stdout + result.stderr,
    );
    // Every ORDER and CANCEL rule was judged: none failed, none unverifiable, none in error.
    expect(summary?.slice(2)).toEqual(['0', '0', '0']);
    expect(Number(summary?.[1])).toBeGreaterThan(25);
  });

  it('without it: exit 2 before any check, one line per mismatch naming the profile field', async () => {
    const result = await run([]);
    expect(result.code, result.stderr).toBe(2);
    const mismatches = result.stderr
      .split('\n')
      .filter((line) => line.includes('dialect mismatch: '));
    expect(mismatches.length).toBeGreaterThan(0);
    for (const line of mismatches) expect(line).toMatch(/dialect mismatch: dialect\.\w+/);
    expect(result.stderr).toContain('dialect.keyPrefix');
    expect(result.stderr).not.toContain('checks ');
  });
});
