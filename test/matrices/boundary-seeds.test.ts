import { beforeAll, describe, expect, it } from 'vitest';
import { type RulesRun, runRules } from './run-rules.js';

/**
 * A limit is tried on every run, whatever the seed. A
 * server that refuses a key of exactly 255 characters (`idem-key-max-254`)
 * fails IDEM-02, and one that takes a key of exactly 256 (`idem-256-key-accepted`)
 * fails IDEM-03, for every one of 20 seeds: the boundary is a fixed example of
 * the property, not left to what the seed happens to generate. No time budget.
 */
const SEEDS = Array.from({ length: 20 }, (_, i) => 1_468_790_269 + i * 7_919);
let tooShort: RulesRun[];
let tooLong: RulesRun[];

beforeAll(async () => {
  // One vitest instance at a time, as the defect matrix runs them.
  tooShort = await runRules({ rules: ['IDEM-02'], seeds: SEEDS, defects: ['idem-key-max-254'] });
  tooLong = await runRules({
    rules: ['IDEM-03'],
    seeds: SEEDS,
    defects: ['idem-256-key-accepted'],
  });
}, 0);

describe('boundaries tried whatever the seed', () => {
  it.each(SEEDS)('IDEM-02 fails a server refusing 255-character keys (seed %i)', (seed) => {
    const result = tooShort.find((r) => r.seed === seed)?.run;
    expect({ exit: result?.exitCode, verdict: result?.verdicts['IDEM-02'] }).toEqual({
      exit: 1,
      verdict: 'failed',
    });
  });

  it.each(SEEDS)('IDEM-03 fails a server taking 256-character keys (seed %i)', (seed) => {
    const result = tooLong.find((r) => r.seed === seed)?.run;
    expect({ exit: result?.exitCode, verdict: result?.verdicts['IDEM-03'] }).toEqual({
      exit: 1,
      verdict: 'failed',
    });
  });
});
