import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { activeRules, catalogue, findRule } from '../../rules/index.js';
import {
  activeStatements,
  isMapped,
  loadStatements,
  StatementIndexError,
  serverStatements,
  statementIndex,
} from '../../rules/statements/index.js';
import { statementFigure, statementsMarkdown } from '../../rules/statements/markdown.js';
import type { Statement } from '../../rules/statements/schema.js';
import { normalise, type Unit, unitsOf } from '../../rules/statements/text.js';
import { defectsOf } from '../matrices/defects-of.js';
import { BROKEN_RULE } from '../matrices/expectations.js';
import { sourceSections, sourceUnits } from './source-text.js';

const units = sourceUnits();
const sections = sourceSections();

/** The units of its document a statement's text (and row) lies in. */
function unitsHolding(s: Statement): Unit[] {
  const text = normalise(s.text);
  const row = s.row === undefined ? undefined : normalise(s.row);
  return units[s.doc].filter(
    (u) => u.section === s.section && u.text.includes(text) && (!row || u.text.includes(row)),
  );
}

/** The quotes of every rule, normalised, with the document and section they come from. */
const quotes = catalogue.flatMap((rule) =>
  rule.source.quote.map((q) => ({
    rule,
    doc: rule.source.doc,
    section: rule.source.section,
    text: normalise(q),
  })),
);

describe('the documents split into units', () => {
  test('sentences of prose and bullets, table rows without header or separator', () => {
    const md = [
      '# Title',
      '',
      'Intro one. Intro two.',
      '',
      '## 1. One',
      '',
      '- A `code` here. `title` may change.',
      '  And more.',
      '2. Numbered.',
      '',
      '| Head | Er |',
      '|---|---|',
      '| 400 | Cell. Two. |',
      '',
      '### Sub',
      'Costs $500.00 in that time, e.g. x.',
    ].join('\n');
    expect(unitsOf(md)).toEqual([
      { section: '0', kind: 'sentence', text: 'Intro one.' },
      { section: '0', kind: 'sentence', text: 'Intro two.' },
      { section: '1', kind: 'sentence', text: 'A code here.' },
      { section: '1', kind: 'sentence', text: 'title may change.' },
      { section: '1', kind: 'sentence', text: 'And more.' },
      { section: '1', kind: 'sentence', text: 'Numbered.' },
      { section: '1', kind: 'row', text: '| 400 | Cell. Two. |' },
      { section: '1', kind: 'sentence', text: 'Costs $500.00 in that time, e.g. x.' },
    ]);
  });
});

describe('the statement index covers both documents', () => {
  test('every unit of the API document (all nine sections) has a statement', () => {
    const uncovered = units.api
      .filter((u) => !activeStatements.some((s) => s.doc === 'api' && unitsHolding(s).includes(u)))
      .map((u) => `API §${u.section}: ${u.text}`);
    expect(uncovered).toEqual([]);
  });

  test("every unit of the contract's reference dialect and readings (section 2) has a statement", () => {
    const uncovered = units.contract
      .filter((u) => u.section === '2')
      .filter(
        (u) => !activeStatements.some((s) => s.doc === 'contract' && unitsHolding(s).includes(u)),
      )
      .map((u) => `contract §2: ${u.text}`);
    expect(uncovered).toEqual([]);
  });

  test('every unit of the control protocol (contract section 3) a rule rests on has a statement', () => {
    const restedOn = units.contract.filter(
      (u) =>
        u.section === '3' &&
        quotes.some(
          (q) =>
            q.doc === 'contract' &&
            q.section === '3' &&
            (q.text.includes(u.text) || u.text.includes(q.text)),
        ),
    );
    expect(restedOn.length).toBeGreaterThan(0);
    const uncovered = restedOn
      .filter(
        (u) => !activeStatements.some((s) => s.doc === 'contract' && unitsHolding(s).includes(u)),
      )
      .map((u) => `contract §3: ${u.text}`);
    expect(uncovered).toEqual([]);
  });

  test("every statement's text is in its section, in exactly one unit (a row names it where the text recurs)", () => {
    const astray = statementIndex.flatMap((s) => {
      if (!sections[s.doc].get(s.section)?.includes(normalise(s.text)) && s.section !== '0') {
        return [`${s.id}: not in ${s.doc} §${s.section}: ${s.text}`];
      }
      const found = unitsHolding(s).length;
      return found === 1 ? [] : [`${s.id}: in ${found} units of ${s.doc} §${s.section}: ${s.text}`];
    });
    expect(astray).toEqual([]);
  });

  test('ids and texts are pinned: changing one is a deliberate snapshot update (ids never change meaning)', async () => {
    const lines = statementIndex.map(
      (s) =>
        `${s.id} ${s.kind}${s.retired ? ' RETIRED' : ''} ${normalise(s.text)}${s.row ? ` [row ${s.row}]` : ''}`,
    );
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./__snapshots__/statements.txt');
  });
});

describe('statements and rules map both ways', () => {
  test('every rule a statement names exists and is active', () => {
    const strays = activeStatements.flatMap((s) =>
      s.rules.filter((id) => findRule(id)?.retired !== false).map((id) => `${s.id}: ${id}`),
    );
    expect(strays).toEqual([]);
  });

  test('every active rule is named by at least one statement (no rule rests on nothing)', () => {
    const named = new Set(activeStatements.flatMap((s) => s.rules));
    expect(activeRules.filter((r) => !named.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  test('every server statement of the API document has an active MUST rule and no gap (a failure lists each gap and the request that would expose it)', () => {
    const unchecked = serverStatements
      .filter((s) => s.doc === 'api')
      .filter((s) => !isMapped(s) || !s.rules.some((id) => findRule(id)?.level === 'MUST'))
      .map((s) => `${s.id} "${s.text}": ${s.gap ?? 'no MUST rule'}`);
    expect(unchecked).toEqual([]);
  });

  test('every server statement of the contract has an active rule and no gap', () => {
    const unchecked = serverStatements
      .filter((s) => s.doc === 'contract' && !isMapped(s))
      .map((s) => `${s.id} "${s.text}": ${s.gap ?? 'no rule'}`);
    expect(unchecked).toEqual([]);
  });
});

describe('scoped statements: both sides', () => {
  const scoped = activeStatements.filter((s) => s.scope !== undefined);

  test('name a check of each side among their own rules', () => {
    expect(scoped.length).toBeGreaterThan(20);
    for (const s of scoped) {
      for (const id of [...(s.scope?.forbids ?? []), ...(s.scope?.allows ?? [])]) {
        expect(s.rules, `${s.id} ${id}`).toContain(id);
      }
    }
  });

  test('name only defects of the defect matrix caught by a check of the allowed side', () => {
    const broken = BROKEN_RULE as Readonly<Record<string, string>>;
    for (const s of scoped) {
      for (const defect of s.scope?.tooWide ?? []) {
        expect(s.scope?.allows, `${s.id} ${defect}`).toContain(broken[defect]);
      }
    }
  });
});

describe('the index refuses malformed data at load', () => {
  test('a server statement without rules or gap, another kind without why, a bad or repeated id', () => {
    const text = 'A token lasts 3600 seconds.';
    expect(() => loadStatements([{ id: 'A5-05', kind: 'server', text }])).toThrow(
      /rules, or its gap/,
    );
    expect(() => loadStatements([{ id: 'A5-05', kind: 'client', text }])).toThrow(/why/);
    expect(() =>
      loadStatements([
        { id: 'A5-05', kind: 'client', text, why: 'binds the client only', gap: 'x'.repeat(12) },
      ]),
    ).toThrow(/only a server statement/);
    expect(() =>
      loadStatements([{ id: 'S5-05', kind: 'server', text, rules: ['AUTH-05'] }]),
    ).toThrow(StatementIndexError);
    const once = { id: 'A5-05', kind: 'server' as const, text, rules: ['AUTH-05'] };
    expect(() => loadStatements([once, once])).toThrow(/duplicate/);
  });
});

describe('the figure', () => {
  test("the README states the index's figure as it is today", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(
      `[docs/statements.md](docs/statements.md), ${statementFigure(activeStatements)}.`,
    );
  });
});

describe('docs/statements.md', () => {
  test('is generated from the index and up to date (npm run docs:rules)', () => {
    const onDisk = readFileSync(new URL('../../docs/statements.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(statementsMarkdown(statementIndex, findRule, defectsOf));
  });
});
