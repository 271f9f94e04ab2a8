import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDemand, writeDemand } from '../../lib/plan/partner-demand.js';
import { emptyDir } from '../support/temp-dir.js';

describe('per-file partner demand, kept for the next run', () => {
  const dirs: string[] = [];
  const cache = () => {
    const dir = emptyDir('demand-');
    dirs.push(dir);
    return join(dir, 'sub', 'partner-demand.json');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps counts by path relative to the suite root, merging runs', () => {
    const path = cache();
    const root = '/opt/suite';
    writeDemand(
      new Map([
        ['/opt/suite/suites/a.check.ts', { read: 1, write: 2, token: 3 }],
        ['/elsewhere/fixture.check.ts', { read: 9, write: 9, token: 9 }],
      ]),
      root,
      path,
    );
    writeDemand(
      new Map([['/opt/suite/suites/b.check.ts', { read: 4, write: 0, token: 0 }]]),
      root,
      path,
    );
    expect(Object.fromEntries(readDemand(path))).toEqual({
      'suites/a.check.ts': { read: 1, write: 2, token: 3 },
      'suites/b.check.ts': { read: 4, write: 0, token: 0 },
    });
  });

  it('reads a missing or broken cache as empty, and skips entries that are not counts', () => {
    const path = cache();
    expect(readDemand(path).size).toBe(0);
    writeDemand(new Map([['/r/x.ts', { read: 1, write: 1, token: 1 }]]), '/r', path);
    writeFileSync(
      path,
      '{"x.ts": {"read": -1, "write": 0, "token": 0}, "y.ts": {"read": 1, "write": 2, "token": 0}}',
    );
    expect([...readDemand(path).keys()]).toEqual(['y.ts']);
    writeFileSync(path, 'not json');
    expect(readDemand(path).size).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('not json');
  });
});
