import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { activeRules } from '../../rules/index.js';
import { buildApp } from '../../server/app.js';
import { parseFlags } from '../../server/cli/flags.js';
import { DEFECT_NAMES, DEFECTS } from '../../server/defects/catalogue.js';
import { ROOT } from './area-checks.js';
import { defectCases } from './cases.js';
import { BROKEN_RULE } from './expectations.js';

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts')
      ? [{ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }]
      : [];
  });
}

const server = sources(join(ROOT, 'server'));

describe('the defect catalogue', () => {
  it('has at least 50 defects, each with a one-line description', () => {
    expect(DEFECT_NAMES.length).toBeGreaterThanOrEqual(50);
    expect(Object.isFrozen(DEFECTS)).toBe(true);
    for (const name of DEFECT_NAMES) {
      expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(DEFECTS[name]).toMatch(/^[^\n]{10,100}$/);
    }
  });

  it('names for every defect an active rule, and nothing else', () => {
    expect(Object.keys(BROKEN_RULE).sort()).toEqual([...DEFECT_NAMES].sort());
    const cases = defectCases();
    expect(cases).toHaveLength(DEFECT_NAMES.length);
  });

  it('breaks every active MUST rule: no rule the suite could pass without proof', () => {
    // A MUST rule no defect breaks is a check never shown to fail; MODEL-01 included, with a
    // defect (an index that forgets) only a random sequence of orders and clock moves meets.
    const broken = new Set(defectCases().map((c) => c.rule));
    const unbroken = activeRules
      .filter((rule) => rule.level === 'MUST' && !broken.has(rule.id))
      .map((rule) => rule.id);
    expect(unbroken).toEqual([]);
  });

  it('is the catalogue docs/detection-matrix.md shows: regenerate it when a defect comes or goes', () => {
    // npm run faults:matrix writes the document; a defect missing there was never measured.
    const doc = readFileSync(join(ROOT, 'docs', 'detection-matrix.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual([...DEFECT_NAMES].sort());
  });

  it('is switched in server code: every defect is asked for, and only defects of the catalogue', () => {
    const code = server.filter((file) => file.path !== join('server', 'defects', 'catalogue.ts'));
    const asked = new Set(
      code.flatMap((file) => [...file.text.matchAll(/hasDefect\('([^']+)'\)/g)].map((m) => m[1])),
    );
    // Names listed in a helper's own defect list count as asked for too.
    const listed = new Set(
      code.flatMap((file) => [...file.text.matchAll(/^\s+'([a-z0-9-]+)',$/gm)].map((m) => m[1])),
    );
    expect(
      [...asked].filter((name) => !(DEFECT_NAMES as readonly string[]).includes(name ?? '')),
    ).toEqual([]);
    expect(DEFECT_NAMES.filter((name) => !asked.has(name) && !listed.has(name))).toEqual([]);
  });
});

describe('the defect switches', () => {
  it('are off by default', async () => {
    const app = await buildApp({});
    onTestFinished(() => app.close());
    expect(DEFECT_NAMES.filter((name) => app.ctx.hasDefect(name))).toEqual([]);
  });

  it('turn on one defect and no other', async () => {
    const app = await buildApp({ defects: ['cancel-twice'] });
    onTestFinished(() => app.close());
    expect(DEFECT_NAMES.filter((name) => app.ctx.hasDefect(name))).toEqual(['cancel-twice']);
  });

  it('refuse an unknown name: a typo must not start a correct server', async () => {
    await expect(buildApp({ defects: ['cancel-twise'] })).rejects.toThrow(
      /unknown defect "cancel-twise"/,
    );
  });

  it('cannot be set from the command line or the environment of the server', () => {
    expect(parseFlags(['--defects', 'cancel-twice']).ok).toBe(false);
    expect(parseFlags(['--defect=cancel-twice']).ok).toBe(false);
    const entry = server.filter((file) => /^server[\\/](main|cli[\\/])/.test(file.path));
    for (const file of entry) expect(file.text).not.toMatch(/defect/i);
  });

  it('are read only from the in-process option of buildApp', () => {
    // Nothing else (a control route, a request hook, an environment variable) may set them.
    const readers = server
      .filter((file) => file.path !== join('server', 'defects', 'catalogue.ts'))
      .filter((file) => /\bopts\.defects\b|\bdefects\??\s*:/.test(file.text))
      .map((file) => file.path.replaceAll('\\', '/'));
    expect(readers.sort()).toEqual(['server/app.ts', 'server/options.ts']);
    expect(server.filter((file) => /process\.env[^\n]*DEFECT/i.test(file.text))).toEqual([]);
  });

  it('leave the expectations to the tests: the server imports nothing from test/', () => {
    expect(
      server.filter((file) => /from '(?:\.\.\/)+test\//.test(file.text)).map((f) => f.path),
    ).toEqual([]);
  });
});
