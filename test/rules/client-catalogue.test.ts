import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { JUDGES, WORDS_RULE } from '../../lib/grading/judges/index.js';
import {
  activeClientRules,
  clientCatalogue,
  loadClientCatalogue,
  SITUATION_NAMES,
} from '../../rules/client/index.js';
import { clientRulesMarkdown } from '../../rules/client/markdown.js';
import { CatalogueError } from '../../rules/index.js';
import { activeStatements } from '../../rules/statements/index.js';
import { normalise, sourceSections } from './source-text.js';

const docs = sourceSections();

describe('the client rules', () => {
  test('ids and titles are pinned: changing one is a deliberate snapshot update', async () => {
    const lines = clientCatalogue.map(
      (r) => `${r.id} ${r.level} §${r.section}${r.retired ? ' RETIRED' : ''} ${r.title}`,
    );
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(
      './__snapshots__/client-catalogue.txt',
    );
  });

  test('each quote is in the cited section of the API document, verbatim', () => {
    const misquoted = clientCatalogue.flatMap((rule) =>
      rule.source.quote
        .filter((q) => !docs[rule.source.doc].get(rule.source.section)?.includes(normalise(q)))
        .map((q) => `${rule.id} (§${rule.source.section}): ${q}`),
    );
    expect(misquoted).toEqual([]);
  });

  test('malformed client rules are refused at load, naming the rule', () => {
    const base = {
      id: 'CLIENT-01',
      level: 'MUST' as const,
      title: 'MUST do what the document says',
      section: '7',
      source: { doc: 'api' as const, section: '7', quote: 'Wait, then retry.' },
      chance: 'request answered 429',
      expects: 'It waits, then retries.',
    };
    expect(() => loadClientCatalogue([base])).not.toThrow();
    expect(() => loadClientCatalogue([{ ...base, id: 'TOKEN-01' }])).toThrow(/CLIENT-NN/);
    expect(() => loadClientCatalogue([{ ...base, title: 'SHOULD wait' }])).toThrow(/level/);
    expect(() =>
      loadClientCatalogue([
        {
          ...base,
          section: 'C2',
          source: { doc: 'contract', section: '2', quote: 'read_only: reads work' },
        },
      ]),
    ).toThrow(/MUST rule must rest on the API document/);
    expect(() =>
      loadClientCatalogue([{ ...base, situations: ['no-such-situation' as 'read-only'] }]),
    ).toThrow(CatalogueError);
    expect(() => loadClientCatalogue([base, base])).toThrow(/duplicate/);
  });

  test('every active client rule has exactly one judge, and every judge an active rule', () => {
    const active = activeClientRules.map((r) => r.id).sort();
    expect([...JUDGES.keys(), WORDS_RULE].sort()).toEqual(active);
  });

  test('every situation exercises some rule', () => {
    const named = new Set(activeClientRules.flatMap((r) => r.situations));
    expect(SITUATION_NAMES.filter((s) => !named.has(s))).toEqual([]);
  });
});

describe('the client statements of the API document (the one statement index)', () => {
  const graded = activeStatements.filter((s) => s.clientRules.length > 0);

  test('each names client rules that exist', () => {
    const ids = new Set(activeClientRules.map((r) => r.id));
    const astray = graded.flatMap((s) =>
      s.clientRules.filter((id) => !ids.has(id)).map((id) => `${s.id}: ${id}`),
    );
    expect(astray).toEqual([]);
  });

  test('every client rule is named by a statement, and rests on the text of one that names it', () => {
    const unnamed = activeClientRules.filter(
      (rule) =>
        !graded.some(
          (s) =>
            s.clientRules.includes(rule.id) &&
            rule.source.quote.some(
              (q) =>
                normalise(q).includes(normalise(s.text)) ||
                normalise(s.text).includes(normalise(q)),
            ),
        ),
    );
    expect(unnamed.map((r) => r.id)).toEqual([]);
  });

  test('a client statement no rule grades says why', () => {
    const silent = activeStatements.filter(
      (s) => s.kind === 'client' && s.clientRules.length === 0 && !s.why,
    );
    expect(silent.map((s) => s.id)).toEqual([]);
  });
});

describe('docs/partners.md, "Grade your client"', () => {
  test('says what every client rule expects, in the words of the rule', () => {
    const page = readFileSync(new URL('../../docs/partners.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## Grade your client'));
    const missing = activeClientRules.filter(
      (rule) => !section.includes(`| ${rule.id} | ${rule.expects} |`),
    );
    expect(missing.map((r) => r.id)).toEqual([]);
  });
});

describe('docs/client-rules.md', () => {
  const onDisk = readFileSync(new URL('../../docs/client-rules.md', import.meta.url), 'utf8');

  test('is generated from the client rules and up to date (npm run docs:rules)', () => {
    expect(onDisk).toBe(clientRulesMarkdown(clientCatalogue));
  });

  test('has a row for every client rule', () => {
    const rowIds = [...onDisk.matchAll(/^\| (CLIENT-\d{2}) \|/gm)].map((m) => m[1]);
    expect(rowIds.sort()).toEqual(clientCatalogue.map((r) => r.id).sort());
  });
});
