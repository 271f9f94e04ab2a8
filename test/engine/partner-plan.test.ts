import { describe, expect, it } from 'vitest';
import type { Tally } from '../../lib/client/rate-limits.js';
import { planFileOrder } from '../../lib/plan/partner-plan.js';

/** Windows the plan needs when every file's requests go out in order: a stall each time a class is used up. */
function stalls(order: readonly string[], demand: Record<string, Tally>): number {
  const limits = { read: 300, write: 60, token: 20 };
  let used = { read: 0, write: 0, token: 0 };
  let count = 0;
  for (const file of order) {
    const d = demand[file]!;
    // A file's requests interleave its classes.
    const sequence = [
      ...Array<'write'>(d.write).fill('write'),
      ...Array<'token'>(d.token).fill('token'),
      ...Array<'read'>(d.read).fill('read'),
    ].sort((a, b) => (a < b ? -1 : 1));
    for (const kind of sequence) {
      if (used[kind] >= limits[kind]) {
        count += 1;
        used = { read: 0, write: 0, token: 0 };
      }
      used[kind] += 1;
    }
  }
  return count;
}

describe('partner-mode file plan', () => {
  const demand: Record<string, Tally> = {
    'suites/err/a.check.ts': { read: 40, write: 55, token: 2 },
    'suites/order/b.check.ts': { read: 20, write: 55, token: 0 },
    'suites/order/c.check.ts': { read: 20, write: 55, token: 0 },
    'suites/token/d.check.ts': { read: 0, write: 0, token: 18 },
    'suites/token/e.check.ts': { read: 0, write: 0, token: 18 },
    'suites/token/f.check.ts': { read: 0, write: 0, token: 18 },
  };
  const files = Object.keys(demand);

  it('keeps every file exactly once', () => {
    const plan = planFileOrder(files, (f) => demand[f]);
    expect([...plan].sort()).toEqual([...files].sort());
  });

  it('pairs token-heavy files with write-heavy ones instead of leaving the tokens for the end', () => {
    const plan = planFileOrder(files, (f) => demand[f]);
    // As given: the write windows, then the token windows. Planned: each window serves both.
    expect(stalls(files, demand)).toBe(4);
    expect(stalls(plan, demand)).toBe(2);
  });

  it('without counts, estimates from the path and still spreads the token endpoint files', () => {
    const many = [
      ...Array.from({ length: 12 }, (_, i) => `suites/order/o${i}.check.ts`),
      ...Array.from({ length: 4 }, (_, i) => `suites/token/t${i}.check.ts`),
    ];
    const plan = planFileOrder(many, () => undefined);
    const tokenAt = plan.flatMap((f, i) => (f.includes('/token/') ? [i] : []));
    expect(tokenAt[tokenAt.length - 1]! - tokenAt[0]!).toBeGreaterThan(4);
    expect(planFileOrder(many, () => undefined)).toEqual(plan);
  });
});
