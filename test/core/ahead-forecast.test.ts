import { chownSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readForecast, shapeKey, writeForecast } from '../../lib/plan/ahead-forecast.js';
import { emptyDir } from '../support/temp-dir.js';

const dirs: string[] = [];
function cacheFile(): string {
  const dir = emptyDir('ahead-forecast-');
  dirs.push(dir);
  return join(dir, 'nested', 'accounts-ahead.json');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const A = JSON.stringify({ limits: { max_order_value: 1, max_orders_per_day: 1 } });
const B = JSON.stringify({ suspended: true });
const shape = (concurrency: number) =>
  shapeKey({ include: 'suites/**', only: [], capabilities: ['keys'], concurrency, numRuns: 100 });

describe('the forecast of accounts made ahead (lib/plan/ahead-forecast.ts)', () => {
  it("gives back a run's asks in order, stored once per settings", () => {
    const path = cacheFile();
    const asks = [A, A, A, B, A, B, B];
    writeForecast(shape(8), asks, path);
    expect(readForecast(shape(8), path)).toEqual(asks);
    // Each settings once, then stretches of [index, times].
    expect(JSON.parse(readFileSync(path, 'utf8'))[shape(8)]).toEqual({
      settings: [A, B],
      asks: [
        [0, 3],
        [1, 1],
        [0, 1],
        [1, 2],
      ],
    });
  });

  it('knows nothing of another shape, and a new run of a shape replaces its last', () => {
    const path = cacheFile();
    writeForecast(shape(8), [A], path);
    expect(readForecast(shape(4), path)).toEqual([]);
    writeForecast(shape(8), [B, B], path);
    expect(readForecast(shape(8), path)).toEqual([B, B]);
  });

  it('keeps the 8 most recent shapes', () => {
    const path = cacheFile();
    for (let files = 1; files <= 10; files++) writeForecast(shape(files), [A], path);
    expect(readForecast(shape(1), path)).toEqual([]);
    expect(readForecast(shape(2), path)).toEqual([]);
    for (let files = 3; files <= 10; files++) expect(readForecast(shape(files), path)).toEqual([A]);
  });

  it('one shape whatever the order of --only and of the features', () => {
    const of = (only: string[], capabilities: string[]) =>
      shapeKey({ include: 'x', only, capabilities, concurrency: 8, numRuns: 100 });
    expect(of(['B-1', 'A-1'], ['keys', 'accounts'])).toBe(of(['A-1', 'B-1'], ['accounts', 'keys']));
    expect(of(['A-1'], ['keys'])).not.toBe(of(['B-1'], ['keys']));
  });

  it('a missing, broken or foreign cache is no forecast, and is replaced on the next write', () => {
    const path = cacheFile();
    expect(readForecast(shape(8), path)).toEqual([]);
    writeForecast(shape(8), [A], path);
    writeFileSync(path, '{not json');
    expect(readForecast(shape(8), path)).toEqual([]);
    const foreign = {
      [shape(1)]: { settings: ['"a string, not settings"'], asks: [[0, 1]] },
      [shape(2)]: { settings: [A], asks: [[1, 1]] },
      [shape(3)]: { settings: [A], asks: [[0, 0]] },
      [shape(4)]: { settings: [A], asks: [[0, 1e9]] },
      [shape(5)]: [A, A],
    };
    writeFileSync(path, JSON.stringify(foreign));
    for (let files = 1; files <= 5; files++) expect(readForecast(shape(files), path)).toEqual([]);
    writeForecast(shape(8), [B], path);
    expect(readForecast(shape(8), path)).toEqual([B]);
  });

  // Only root can give a file away (chown): elsewhere there is nothing to try.
  it.runIf(process.getuid?.() === 0)(
    'a file another user left in the temporary folder is not followed',
    () => {
      const path = cacheFile();
      writeForecast(shape(8), [A], path);
      expect(readForecast(shape(8), path)).toEqual([A]);
      chownSync(path, 4321, 4321);
      expect(readForecast(shape(8), path)).toEqual([]);
    },
  );

  it('a cache that cannot be written is no error', () => {
    const path = cacheFile();
    writeFileSync(join(path, '..', '..', 'blocker'), '');
    expect(() =>
      writeForecast(shape(8), [A], join(path, '..', '..', 'blocker', 'x.json')),
    ).not.toThrow();
  });
});
