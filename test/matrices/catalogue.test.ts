import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { activeRules, ruleById } from '../../rules/index.js';
import { buildApp } from '../../server/app.js';
import { parseFlags } from '../../server/cli/flags.js';
import { CATALOGUE, DEFECT_NAMES, DEFECTS } from '../../server/defects/catalogue.js';
import type { DefectEnv } from '../../server/defects/defect.js';
import { filesBelow } from '../support/files-below.js';
import { ROOT } from './area-checks.js';
import { defectCases } from './cases.js';
import { BROKEN_RULE } from './expectations.js';

function sources(dir: string): { path: string; text: string }[] {
  return filesBelow(dir, '.ts').map((path) => ({
    path: relative(ROOT, path),
    text: readFileSync(path, 'utf8'),
  }));
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
    // npm run defects:matrix writes the document; a defect missing there was never measured.
    const doc = readFileSync(join(ROOT, 'docs', 'detection-matrix.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual([...DEFECT_NAMES].sort());
  });

  it('keeps each defect in the file of its area, the area of the rule it breaks', () => {
    for (const defect of CATALOGUE) {
      expect({ defect: defect.name, area: ruleById(BROKEN_RULE[defect.name]).area }).toEqual({
        defect: defect.name,
        area: defect.area,
      });
      const file = server.find(
        (f) => f.path === join('server', 'defects', `${defect.area.toLowerCase()}.ts`),
      );
      expect(file?.text, defect.name).toContain(`name: '${defect.name}'`);
    }
  });

  it('has every defect replace at least one function of the server', () => {
    // Composing reads nothing yet: the environment is only captured for the request path.
    const env = { ctx: {}, correct: {}, wide: {} } as unknown as DefectEnv;
    for (const defect of CATALOGUE) {
      expect(Object.keys(defect.replaces(env)).length, defect.name).toBeGreaterThan(0);
    }
  });
});

describe('the defect switches', () => {
  it('are off by default', async () => {
    const app = await buildApp({});
    onTestFinished(() => app.close());
    expect(app.defects).toEqual([]);
  });

  it('turn on one defect and no other', async () => {
    const app = await buildApp({ defects: ['cancel-twice'] });
    onTestFinished(() => app.close());
    expect(app.defects).toEqual(['cancel-twice']);
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
