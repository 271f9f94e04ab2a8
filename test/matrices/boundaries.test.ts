import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../lib/evidence/exchange.js';
import { activeRules } from '../../rules/index.js';
import { BOUNDARIES, NAMES_A_LIMIT } from './boundaries.js';
import { type RulesRun, runRules } from './run-rules.js';

/**
 * Every rule whose quoted sentence names a limit is in
 * BOUNDARIES, and its check is shown to send the limit or its neighbours:
 * by what it sent to the reference (one run of those checks, recorded), by
 * the boundary examples its property declares, or by another rule's check.
 * No time budget (the run's checks have their own timeouts in the engine).
 */
const limited = activeRules
  .filter((rule) => rule.source.quote.some((q) => NAMES_A_LIMIT.test(q)))
  .map((rule) => rule.id);
const recorded = Object.entries(BOUNDARIES).flatMap(([id, proof]) =>
  proof.kind === 'recorded' ? [{ id, ...proof }] : [],
);
let run: RulesRun;

beforeAll(async () => {
  [run] = (await runRules({ rules: recorded.map((r) => r.id), seeds: [26] })) as [RulesRun];
}, 0);

function exchangesOf(id: string): Exchange[] {
  const test = run.collected.tests.find((t) => t.name.startsWith(`${id} `));
  return test?.outcome?.evidence ?? [];
}

describe('rules that name a limit', () => {
  it('are exactly the rules of BOUNDARIES', () => {
    expect(Object.keys(BOUNDARIES).sort()).toEqual([...limited].sort());
  });

  it('point elsewhere only at rules whose own check is shown to send the limit', () => {
    for (const [id, proof] of Object.entries(BOUNDARIES)) {
      if (proof.kind !== 'elsewhere') continue;
      for (const other of proof.rules) {
        expect(BOUNDARIES[other]?.kind, `${id} → ${other}`).toMatch(/^(recorded|declared)$/);
      }
    }
  });

  it.each(
    Object.entries(BOUNDARIES).flatMap(([id, proof]) =>
      proof.kind === 'declared' ? [{ id, ...proof }] : [],
    ),
  )('$id declares $sends', ({ holds }) => {
    expect(holds()).toBe(true);
  });

  it.each(recorded)('$id sent $sends (recorded against the reference)', ({ id, holds }) => {
    // The check ran to its judgement (a DIALECT timing reading may warn on a busy machine).
    expect(['passed', 'warning']).toContain(run.run.verdicts[id]);
    expect(holds(exchangesOf(id))).toBe(true);
  });
});
