import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyParams } from '../../lib/check/property.js';

/** A property's fixed examples run besides its generated inputs, whatever --num-runs. */
describe('property examples', () => {
  it.each([1, 5, 100])('all run first, then %i generated inputs', async (numRuns) => {
    const seen: number[] = [];
    const params = propertyParams<[number]>(7, 'IDEM-02', numRuns, {
      examples: [[-255], [-256]],
    });
    await fc.check(
      fc.asyncProperty(fc.nat(), async (value) => {
        seen.push(value);
        return true;
      }),
      params,
    );
    expect(seen.slice(0, 2)).toEqual([-255, -256]);
    expect(seen.slice(2).length).toBe(numRuns);
    expect(seen.slice(2).every((value) => value >= 0)).toBe(true);
  });

  it('leave the number of runs alone when there are none', () => {
    expect(propertyParams(7, 'IDEM-02', 5).numRuns).toBe(5);
    expect(propertyParams(7, 'IDEM-02', 5, { numRuns: 3 }).numRuns).toBe(3);
  });
});
