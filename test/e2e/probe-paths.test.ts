import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DefectName } from '../../server/defects/catalogue.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * A path the profile moves, through the CLI: the reference server speaking a
 * profile whose catalog is at /catalog/items, run with no profile. The
 * dialect probe reads the catalog where the checks would (a page and a
 * product), so the 404 is a mismatch line naming the profile field and the
 * run stops before any check (exit 2): no MUST rule failed, nothing blamed on
 * the target. Before, the probe took its products from the control API and
 * six MUST checks failed on the 404.
 */
describe('a server with its catalog at another path, run with no profile', () => {
  it('stops before any check with exit 2 and lines naming dialect.paths.catalogProducts and catalogProduct', async () => {
    const controlToken = randomBytes(16).toString('hex');
    const server = await startServer({
      port: 0,
      controlToken,
      db: ':memory:',
      profile: {
        version: 2,
        dialect: {
          paths: { catalogProducts: '/catalog/items', catalogProduct: '/catalog/items/{sku}' },
        },
      },
    });
    try {
      const reports = join(emptyDir('probe-paths-'), 'reports');
      const run = await runCli(['--target', server.origin, '--report-dir', reports], {
        CONTROL_URL: `${server.origin}/__control`,
        CONTROL_TOKEN: controlToken,
      });
      expect(run.code, run.stderr).toBe(2);
      const mismatches = run.stderr
        .split('\n')
        .filter((line) => line.includes('dialect mismatch: '));
      expect(mismatches).toEqual([
        expect.stringMatching(
          /dialect mismatch: dialect\.paths\.catalogProducts: GET \/api\/on-demand\/v1\/catalog\/products\?limit=100 answered 404 not_found$/,
        ),
        expect.stringMatching(
          /dialect mismatch: dialect\.paths\.catalogProduct: GET \/api\/on-demand\/v1\/catalog\/products\/[\w-]+ answered 404 not_found$/,
        ),
      ]);
      // No check ran, so none failed: only the probe's exchanges are kept. (A slow probe may see a
      // progress line of the checks waiting for it: never one with a check done.)
      expect(run.stderr).not.toMatch(/checks +[1-9]/);
      expect(readdirSync(reports)).toEqual(['dialect-probe.json']);
    } finally {
      await server.close();
    }
  }, 0);
});

/** A reference server with a control API (and perhaps a defect); the caller closes it. */
async function serverWith(
  defects: DefectName[],
): Promise<{ server: RunningServer; env: Record<string, string> }> {
  const controlToken = randomBytes(16).toString('hex');
  const server = await startServer({ port: 0, controlToken, db: ':memory:', defects });
  return {
    server,
    env: { CONTROL_URL: `${server.origin}/__control`, CONTROL_TOKEN: controlToken },
  };
}

/** The verdict of each rule of a run's report.json. */
function verdicts(reports: string): Record<string, string> {
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as {
    results: { rule_id: string; verdict: string }[];
  };
  return Object.fromEntries(report.results.map((r) => [r.rule_id, r.verdict]));
}

/**
 * What the API document fixes is never a dialect matter: a server that
 * breaks it is not stopped at the probe (exit 2, "nothing is blamed on the
 * target") but checked, and fails the rule it breaks.
 */
describe('a server that breaks what the document fixes: the run goes on and the rule fails', () => {
  it('GET /orders/by-external-id/{external_id} answering 404: no mismatch, a note, ORDER-20 failed, exit 1', async () => {
    const { server, env } = await serverWith(['by-external-id-not-served']);
    try {
      const reports = join(emptyDir('probe-paths-'), 'reports');
      const run = await runCli(
        ['--target', server.origin, '--only', 'ORDER-20', '--report-dir', reports],
        env,
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).not.toContain('dialect mismatch');
      expect(run.stderr).toMatch(
        /dialect probe: GET \/api\/on-demand\/v1\/orders\/by-external-id\/probe-[\w-]+ answered 404 not_found at a path the API document fixes \(section 4\): no dialect matter, the checks judge it/,
      );
      expect(verdicts(reports)['ORDER-20']).toBe('failed');
    } finally {
      await server.close();
    }
  }, 0);

  it('a valid order, and its quote, refused at exactly the maximum order value: ORDER-11 failed, exit 1, not a profile gap', async () => {
    const { server, env } = await serverWith(['order-max-value-exclusive-quotes-too']);
    try {
      const reports = join(emptyDir('probe-paths-'), 'reports');
      const run = await runCli(
        ['--target', server.origin, '--only', 'ORDER-11', '--report-dir', reports],
        env,
      );
      expect(run.code, run.stderr).toBe(1);
      expect(verdicts(reports)['ORDER-11']).toBe('failed');
      const report = readFileSync(join(reports, 'report.json'), 'utf8');
      // The hint is the rule's, never the profile's quote body: the probe saw the target take it.
      expect(report).not.toContain('dialect.quoteBody');
      expect(JSON.parse(report).dialect_probe.seen).toEqual(['orderBody', 'quoteBody']);
      expect(report).toContain('an order of exactly the maximum order value');
    } finally {
      await server.close();
    }
  }, 0);

  it("an older profile that moves paths of the endpoint table: loaded, said once to be ignored, the document's paths checked", async () => {
    const { server, env } = await serverWith([]);
    try {
      const dir = emptyDir('probe-paths-');
      const profile = join(dir, 'old.json');
      writeFileSync(
        profile,
        JSON.stringify({
          dialect: {
            paths: {
              orders: '/purchase-orders',
              orderByExternalId: '/purchase-orders?external_id={external_id}',
            },
          },
        }),
      );
      const reports = join(dir, 'reports');
      const run = await runCli(
        [
          '--target',
          server.origin,
          '--profile',
          profile,
          '--only',
          'ORDER-20',
          '--report-dir',
          reports,
        ],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const ignored = run.stderr.split('\n').filter((line) => line.includes('ignored'));
      expect(ignored).toEqual([
        expect.stringContaining(
          'dialect.paths.orders, dialect.paths.orderByExternalId are ignored: the API document fixes them (section 4)',
        ),
      ]);
      expect(verdicts(reports)['ORDER-20']).toBe('passed');
    } finally {
      await server.close();
    }
  }, 0);
});
