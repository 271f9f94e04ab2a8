import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts')
      ? [{ path: relative(ROOT, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }]
      : [];
  });
}

/** Production code: the server without its test-only defect catalogue. */
const requestPath = sources(join(ROOT, 'server')).filter(
  (file) => !file.path.startsWith('server/defects/'),
);

describe('issue 14: the request path reads as the correct server', () => {
  it('asks for no defect outside server/defects/', () => {
    const asking = requestPath.filter((file) => /\bhasDefect\(\s*'/.test(file.text));
    expect(asking.map((file) => file.path)).toEqual([]);
  });

  it('plugs the defect catalogue in through at most 10 hook call sites', () => {
    const sites = requestPath.flatMap((file) =>
      [...file.text.matchAll(/ctx\.hooks\.|installAnswerDefects\(app/g)].map(() => file.path),
    );
    expect(sites.length).toBeGreaterThan(0);
    expect(sites.length).toBeLessThanOrEqual(10);
  });

  it('leaves the hooks empty and installs no answer rewriting on a correct server', async () => {
    const app = await buildApp({});
    onTestFinished(() => app.close());
    expect(app.ctx.hooks).toEqual({});
    expect(app.printPlugins()).not.toMatch(/defect/i);
  });

  it('fills the hooks when a defect is switched on', async () => {
    const app = await buildApp({ defects: ['cancel-twice'] });
    onTestFinished(() => app.close());
    expect(Object.keys(app.ctx.hooks).sort()).toEqual(
      [
        'cancelOrder',
        'controlKeys',
        'credentials',
        'orderReads',
        'orders',
        'requestChecks',
        'quotes',
        'webhookEndpoints',
      ].sort(),
    );
  });
});
