import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * Issue 26, point 4, through the CLI: the reference server speaking a
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
      // No check ran, so none failed: only the probe's exchanges are kept.
      expect(run.stderr).not.toContain('checks ');
      expect(readdirSync(reports)).toEqual(['dialect-probe.json']);
    } finally {
      await server.close();
    }
  }, 0);
});
