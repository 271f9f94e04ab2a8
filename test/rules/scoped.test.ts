import { describe, expect, it } from 'vitest';
import { activeRules } from '../../rules/index.js';
import { SCOPED_STATEMENTS } from '../../rules/scoped.js';
import { BROKEN_RULE } from '../faults/expectations.js';

describe('scoped statements: both sides (docs/rules.md)', () => {
  const active = new Set(activeRules.map((r) => r.id));

  it('names a check of each side, by active rule id', () => {
    for (const s of SCOPED_STATEMENTS) {
      expect(s.forbids.length, s.statement).toBeGreaterThan(0);
      expect(s.allows.length, s.statement).toBeGreaterThan(0);
      for (const id of [...s.forbids, ...s.allows]) expect(active.has(id), id).toBe(true);
    }
  });

  it('names only defects of the fault matrix caught by a check of the allowed side', () => {
    const broken = BROKEN_RULE as Readonly<Record<string, string>>;
    for (const s of SCOPED_STATEMENTS) {
      for (const defect of s.tooWide) expect(s.allows, defect).toContain(broken[defect]);
    }
  });
});
