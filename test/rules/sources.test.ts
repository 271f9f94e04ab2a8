import { describe, expect, test } from 'vitest';
import { activeRules, CatalogueError, catalogue, loadCatalogue } from '../../rules/index.js';
import type { RuleInput } from '../../rules/schema.js';
import { normalise, sectionsOf, sourceSections } from './source-text.js';

const docs = sourceSections();

describe('every rule quotes the sentence it rests on', () => {
  test('both documents are split into their numbered sections', () => {
    expect([...docs.api.keys()]).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect([...docs.contract.keys()]).toEqual(['1', '2', '3', '4']);
  });

  test('each quote is in the cited section of the cited document, verbatim', () => {
    const misquoted = catalogue.flatMap((rule) =>
      rule.source.quote
        .filter(
          (quote) => !docs[rule.source.doc].get(rule.source.section)?.includes(normalise(quote)),
        )
        .map((quote) => `${rule.id} (${rule.source.doc} §${rule.source.section}): ${quote}`),
    );
    expect(misquoted).toEqual([]);
  });

  test("each reading is one of the contract's readings (section 2, after its heading), verbatim", () => {
    const readings =
      docs.contract.get('2')?.split('Readings of the API document that the suite holds to')[1] ??
      '';
    expect(readings.length).toBeGreaterThan(100);
    const misread = catalogue.flatMap((rule) =>
      (rule.source.reading ?? [])
        .filter((reading) => !readings.includes(normalise(reading)))
        .map((reading) => `${rule.id}: ${reading}`),
    );
    expect(misread).toEqual([]);
  });

  test('a quote found only in another section, or only in the other document, is refused', () => {
    // The comparison is per section: the same words cited under the wrong number do not pass.
    const inFive = 'At most 20 token requests a minute per key.';
    expect(docs.api.get('5')).toContain(normalise(inFive));
    expect(docs.api.get('8')).not.toContain(normalise(inFive));
    expect(docs.api.get('3')).not.toContain(normalise('Invoice billing never fails payment.'));
    expect(docs.contract.get('3')).toContain(normalise('Invoice billing never fails payment.'));
  });

  test('white space, code marks and emphasis are compared alike on both sides', () => {
    expect(normalise('Header `Idempotency-Key` is\n  required')).toBe(
      'Header Idempotency-Key is required',
    );
    expect(normalise('1. **Verdict levels**: how a *check* is graded')).toBe(
      '1. Verdict levels: how a check is graded',
    );
    expect(normalise('401 `token_expired` and 2 * 3 * 4')).toBe('401 token_expired and 2 * 3 * 4');
    const sections = sectionsOf(
      '# Title\n\nintro\n\n## 1. One\n\nA `b`\nc.\n\n### Sub\n\nd\n\n## 2. Two\n\ne\n',
    );
    expect([...sections.entries()]).toEqual([
      ['1', '## 1. One A b c. ### Sub d'],
      ['2', '## 2. Two e'],
    ]);
  });
});

describe('levels true to the source (target contract, section 1)', () => {
  test('every MUST rule rests on the API document alone', () => {
    const astray = activeRules
      .filter((r) => r.level === 'MUST' && (r.source.doc !== 'api' || r.source.rfc !== undefined))
      .map((r) => r.id);
    expect(astray).toEqual([]);
  });

  test('a MUST rule quoting the contract or an RFC is refused at load', () => {
    const quote = 'Invoice billing never fails payment.';
    expect(() =>
      loadCatalogue([
        {
          id: 'PAY-07',
          level: 'MUST',
          title: 'MUST never fail payment for an account billed by invoice',
          section: 'C3',
          source: { doc: 'contract', section: '3', quote },
        },
      ]),
    ).toThrow(/MUST rule must rest on the API document/);
    expect(() =>
      loadCatalogue([
        {
          id: 'TOKEN-13',
          level: 'MUST',
          title: 'MUST send Cache-Control: no-store with every token',
          section: '4',
          source: {
            doc: 'api',
            section: '4',
            quote: 'Response: the access token object of section 2.',
            rfc: 'RFC 6749 §5.1',
          },
        },
      ]),
    ).toThrow(CatalogueError);
  });

  test('a MUST rule may carry the reading the contract fixes; a reading that leaves an alternative, or beside a contract quote, is refused', () => {
    const rule = {
      id: 'HOOK-03',
      level: 'MUST' as const,
      title: 'MUST not count deleted webhook endpoints toward the five',
      section: '6',
    };
    const quote = 'At most 5 webhook endpoints per mode.';
    expect(
      loadCatalogue([
        {
          ...rule,
          source: {
            doc: 'api',
            section: '6',
            quote,
            reading: 'Deleted webhook endpoints do not count toward the five.',
          },
        },
      ])[0]?.source.reading,
    ).toEqual(['Deleted webhook endpoints do not count toward the five.']);
    expect(() =>
      loadCatalogue([
        {
          ...rule,
          source: {
            doc: 'api',
            section: '6',
            quote,
            reading: 'exactly 3600 is DIALECT as the contract says',
          },
        },
      ]),
    ).toThrow(/fixes nothing/);
    expect(() =>
      loadCatalogue([
        {
          ...rule,
          level: 'DIALECT',
          title: 'DIALECT not count deleted webhook endpoints toward the five',
          section: 'C2',
          source: {
            doc: 'contract',
            section: '2',
            quote: 'Deleted webhook endpoints do not count toward the five.',
            reading: 'Deleted webhook endpoints do not count toward the five.',
          },
        },
      ]),
    ).toThrow(/only beside doc "api"/);
  });

  test("a rule's section is the section its source quotes", () => {
    expect(() =>
      loadCatalogue([
        {
          id: 'RATE-03',
          level: 'MUST',
          title: 'MUST serve 20 token requests a minute per key',
          section: '8',
          source: {
            doc: 'api',
            section: '5',
            quote: 'At most 20 token requests a minute per key.',
          },
        },
      ]),
    ).toThrow(/section 8 is not the section its source quotes \(5\)/);
  });

  test('a rule without a source is refused at load', () => {
    const withoutSource = { id: 'IDEM-01', level: 'MUST', title: 'MUST x and more', section: '4' };
    expect(() => loadCatalogue([withoutSource as unknown as RuleInput])).toThrow(/source/);
  });
});
