import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces } from '../../lib/reports/json-pieces.js';

const text = (value: unknown, path: string[]) => [...jsonPieces(value, path)].join('');
const stringified = (value: unknown) => JSON.stringify(value, null, 2);

describe('a report written in pieces (lib/reports/json-pieces.ts)', () => {
  it('joins to what JSON.stringify(value, null, 2) writes, whatever the data', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.jsonValue()),
        fc.jsonValue(),
        (top, results, inner) => {
          const report = { ...top, results, nested: { log: { entries: results, other: inner } } };
          expect(text(report, ['results'])).toBe(stringified(report));
          expect(text(report, ['nested', 'log', 'entries'])).toBe(stringified(report));
          // A path that is not there (or not to an array): the value whole.
          expect(text(report, ['none', 'entries'])).toBe(stringified(report));
          expect(text({ results: inner }, ['results'])).toBe(stringified({ results: inner }));
        },
      ),
    );
  });

  it('gives each element of the array at the path a piece of its own, and the rest whole', () => {
    const report = { a: 1, results: [{ id: 'X-01' }, { id: 'X-02' }, { id: 'X-03' }], z: [1, 2] };
    const pieces = [...jsonPieces(report, ['results'])];
    expect(pieces.filter((piece) => piece.includes('"id"'))).toHaveLength(3);
    expect(pieces.filter((piece) => piece.includes('X-0'))).toEqual(
      pieces.filter((piece) => piece.includes('"id"')),
    );
  });

  it('writes a generator at the path as the array it yields, making each element as it goes', () => {
    const made: number[] = [];
    function* elements() {
      for (const n of [1, 2, 3]) {
        made.push(n);
        yield { n, skipped: undefined };
      }
    }
    const pieces = jsonPieces({ log: { entries: elements(), after: true } }, ['log', 'entries']);
    let joined = '';
    for (const piece of pieces) {
      joined += piece;
      // Made lazily: never more than one element ahead of what was written.
      expect(made.length).toBeLessThanOrEqual((joined.match(/"n"/g) ?? []).length + 1);
    }
    const array = [1, 2, 3].map((n) => ({ n }));
    expect(joined).toBe(stringified({ log: { entries: array, after: true } }));
    function* none() {}
    expect(text({ entries: none() }, ['entries'])).toBe(stringified({ entries: [] }));
  });

  it('leaves out members JSON leaves out (undefined, functions), and writes them as null in an array', () => {
    const value = { a: undefined, b: () => 1, results: [undefined, 1, () => 2], c: 'ok' };
    expect(text(value, ['results'])).toBe(stringified(value));
  });
});
