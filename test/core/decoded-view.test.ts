import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodedLevels, decodingMatters } from '../../lib/evidence/decoded-view.js';
import { Redactor } from '../../lib/evidence/redactor.js';

/** The characters a base64url secret is written with: what the redactor searches for. */
const RELEVANT = new Set(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].map((c) =>
    c.charCodeAt(0),
  ),
);
const relevant = (unit: number) => RELEVANT.has(unit);

/** Pieces of text as reports hold them: words, introducers, escapes of every kind, relevant or not. */
const piece = fc.oneof(
  fc.constantFrom(
    'Ab9',
    'x_y',
    '-',
    ' ',
    '"',
    '\\',
    '%',
    '&',
    ';',
    '#',
    'u00',
    '\\"',
    '\\n',
    '\\\\',
    '\\/',
    '\\u0041',
    '\\u00e9',
    '\\u005c',
    '\\u0022',
    '%41',
    '%0A',
    '%25',
    '%C3%A9',
    '%5C',
    '&quot;',
    '&lt;',
    '&amp;',
    '&#65;',
    '&#x2F;',
    '&#233;',
    '&lowbar;',
    '&#59;',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 4 }),
);
const text = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(''));

/** The runs of relevant characters of a decoded level, with the raw span each came from. */
function runs(level: {
  text: string;
  from: Int32Array;
  to: Int32Array;
}): [string, number, number][] {
  const out: [string, number, number][] = [];
  let start = -1;
  for (let k = 0; k <= level.text.length; k++) {
    const inRun = k < level.text.length && relevant(level.text.charCodeAt(k));
    if (inRun && start < 0) start = k;
    if (!inRun && start >= 0) {
      out.push([
        level.text.slice(start, k),
        level.from[start] as number,
        level.to[k - 1] as number,
      ]);
      start = -1;
    }
  }
  return out;
}

describe('decodingMatters', () => {
  test('when it says no, every run of relevant characters of every decoded level stands in the raw text as it is', () => {
    fc.assert(
      fc.property(text, (raw) => {
        fc.pre(!decodingMatters(raw, relevant));
        for (const level of decodedLevels(raw)) {
          for (const [run, from, to] of runs(level)) expect(raw.slice(from, to)).toBe(run);
        }
      }),
      { seed: 41, numRuns: 3000 },
    );
  });

  test('says yes where an escape shows a relevant character or completes another escape', () => {
    for (const raw of ['a\\u0041b', '%41', '&#65;', '\\\\u0041', '%2541', '&amp;#65;', '&#x41;'])
      expect(decodingMatters(raw, relevant), raw).toBe(true);
    for (const raw of [
      '{\\"a\\":\\"b\\"}',
      '&quot;x&quot; &lt;p&gt;',
      'line\\nnext',
      '%C3%A9',
      'a & b',
    ])
      expect(decodingMatters(raw, relevant), raw).toBe(false);
  });
});

describe('Redactor: decoding only where it matters finds what decoding everything finds', () => {
  test('a shape beside an escaped character that makes its word boundary', () => {
    const shaped = 'abcdefghijklmn_at_ZyXwVuTsRqPoNmLkJiHg';
    const out = new Redactor().redact(`{"v":"\\u00e9${shaped}"}`);
    expect(out).not.toContain('ZyXwVuTsRqPoNmLkJiHg');
  });

  test('a held secret next to escapes that show nothing, and inside escapes that do', () => {
    const secret = 'Sx7-Qw_93kLmNpRt5vWyZa';
    const redactor = new Redactor();
    redactor.add(secret, 'secret');
    const escaped = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    for (const raw of [
      `{\\"body\\":\\"${secret}\\"}\\n`,
      `&quot;${secret}&quot;`,
      `{"v":"${escaped.join('')}"}`,
      `&lt;${secret.slice(0, 9)}&#${secret.charCodeAt(9)};${secret.slice(10)}&gt;`,
    ]) {
      expect(redactor.redact(raw), raw).not.toMatch(/Sx7-Qw|u0053\\u0078/);
    }
  });
});
