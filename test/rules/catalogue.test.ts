import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { activeRules, CatalogueError, catalogue, loadCatalogue } from '../../rules/index.js';
import { catalogueMarkdown } from '../../rules/markdown.js';
import { findChecks } from './suite-checks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the rule catalogue', () => {
  test('ids and titles are pinned: changing one is a deliberate snapshot update', async () => {
    const lines = catalogue.map(
      (r) => `${r.id} ${r.level} §${r.section}${r.retired ? ' RETIRED' : ''} ${r.title}`,
    );
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./__snapshots__/catalogue.txt');
  });

  test('covers every area of the API document', () => {
    const areas = new Set(activeRules.map((r) => r.area));
    for (const area of [
      'TOKEN',
      'AUTH',
      'KEY',
      'SCOPE',
      'URL',
      'IP',
      'ACCT',
      'RATE',
      'IDEM',
      'ORDER',
      'PAY',
      'PROB',
      'CANCEL',
      'MODE',
      'READ',
      'HOOK',
      'SVC',
      'ERR',
    ]) {
      expect(areas, `area ${area}`).toContain(area);
    }
  });

  test('malformed entries are refused at load with the rule named', () => {
    const source = { doc: 'api' as const, section: '4', quote: 'If it is missing, 400.' };
    expect(() =>
      loadCatalogue([{ id: 'IDEM-1', level: 'MUST', title: 'MUST x', section: '4', source }]),
    ).toThrow(CatalogueError);
    expect(() =>
      loadCatalogue([
        {
          id: 'IDEM-01',
          level: 'MUST',
          title: 'SHOULD mismatched level word',
          section: '4',
          source,
        },
      ]),
    ).toThrow(/level/);
    expect(() =>
      loadCatalogue([
        { id: 'NOPE-01', level: 'MUST', title: 'MUST in no known area', section: '4', source },
      ]),
    ).toThrow(/area/);
    const twice = {
      id: 'IDEM-01',
      level: 'MUST' as const,
      title: 'MUST appear only once',
      section: '4',
      source,
    };
    expect(() => loadCatalogue([twice, twice])).toThrow(/duplicate/);
  });
});

describe('checks and rules match one to one', () => {
  const checks = findChecks(root);

  test('every active rule has exactly one check', () => {
    const count = new Map<string, string[]>();
    for (const c of checks) count.set(c.ruleId, [...(count.get(c.ruleId) ?? []), c.file]);
    const missing = activeRules.filter((r) => !count.has(r.id)).map((r) => r.id);
    const doubled = [...count.entries()]
      .filter(([, files]) => files.length > 1)
      .map(([id, files]) => `${id}: ${files.join(', ')}`);
    expect(missing, 'rules without a check').toEqual([]);
    expect(doubled, 'rules with more than one check').toEqual([]);
  });

  test('every check names an active rule of the catalogue', () => {
    const active = new Set<string>(activeRules.map((r) => r.id));
    const strays = checks
      .filter((c) => !active.has(c.ruleId))
      .map((c) => `${c.ruleId} in ${c.file}`);
    expect(strays).toEqual([]);
  });
});

describe('docs/rules.md', () => {
  test('is generated from the catalogue and up to date (npm run docs:rules)', () => {
    const onDisk = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(catalogueMarkdown(catalogue));
  });

  test('has a row for every rule, and no row for a rule that does not exist', () => {
    const onDisk = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    const rowIds = [...onDisk.matchAll(/^\| ([A-Z]+-\d{2}) \|/gm)].map((m) => m[1]);
    expect(rowIds.sort()).toEqual(catalogue.map((r) => r.id).sort());
  });
});
