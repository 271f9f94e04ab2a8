import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, test } from 'vitest';
import { escapeTerminal } from '../../lib/reports/escape-terminal.js';
import { markdownCode, markdownFence, markdownText } from '../../lib/reports/markdown-text.js';
import { INJECTED } from '../support/hostile-target.js';

/**
 * A target's words reach the terminal and summary.md: nothing in them may act
 * on a terminal, or become an element, a heading or the end of a block when a
 * Markdown viewer renders them (markdown-it with raw HTML allowed, the worst
 * case of a viewer).
 */
const md = new MarkdownIt({ html: true, linkify: true });
const CONTROLS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${CONTROLS}]`);
const HOSTILE = [
  INJECTED.code,
  INJECTED.title,
  INJECTED.detail,
  '```',
  '\r```\r',
  '````',
  '~~~\n# x',
];
/** Any text, hostile pieces and control characters mixed in. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .array(fc.constantFrom(...HOSTILE, 'a', ' ', '\n', '\r', '`', '<', '&', '\\', '|', '#'), {
      maxLength: 12,
    })
    .map((parts) => parts.join('')),
);

describe('escapeTerminal', () => {
  test('leaves no character a terminal acts on; line feeds only when asked to keep them', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(escapeTerminal(text)).not.toMatch(CONTROL);
        expect(escapeTerminal(text)).not.toContain('\n');
        expect(escapeTerminal(text, { keepNewlines: true })).not.toMatch(CONTROL);
      }),
      { seed: 38, numRuns: 500 },
    );
    expect(escapeTerminal(INJECTED.code)).toBe(
      'validation_failed\\x1b[2K\\r\\x1b[1Apassed 193 failed 0\\x1b]0;pwned\\x07\\x1b[8m',
    );
    expect(escapeTerminal('plain text, tabs\tand ü')).toBe('plain text, tabs\tand ü');
  });
});

describe('summary.md text, code spans and fences', () => {
  test('a value in a list item stays text of that one item: no element, heading or second item', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const html = md.render(`- **ERR-01** ${markdownText(text)}\n- **ERR-02** next\n`);
        expect(tagsOf(html)).toEqual([
          'ul',
          'li',
          'strong',
          '/strong',
          '/li',
          'li',
          'strong',
          '/strong',
          '/li',
          '/ul',
        ]);
        expect(html).not.toMatch(CONTROL);
      }),
      { seed: 38, numRuns: 500 },
    );
  });

  test('a code span cannot be closed from inside', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const html = md.render(`Target ${markdownCode(text)} done`);
        expect(tagsOf(html)).toEqual(['p', 'code', '/code', '/p']);
        expect(html.endsWith(' done</p>\n')).toBe(true);
      }),
      { seed: 38, numRuns: 500 },
    );
  });

  test('a fenced block under a list item cannot be closed from inside, nor left by a line ending', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const html = md.render(
          `- **IDEM-03** failed\n${markdownFence(text, 'sh', '  ')}\n- **IDEM-04** next\n`,
        );
        expect(tagsOf(html)).toEqual([
          'ul',
          'li',
          'strong',
          '/strong',
          'pre',
          'code',
          '/code',
          '/pre',
          '/li',
          'li',
          'strong',
          '/strong',
          '/li',
          '/ul',
        ]);
      }),
      { seed: 38, numRuns: 500 },
    );
  });
});

/** The element tags of rendered HTML, in order (`/li` closes). */
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<(\/?[a-z0-9]+)[^>]*>/g)].map((m) => m[1] as string);
}
