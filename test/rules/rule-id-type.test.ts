import { describe, expect, expectTypeOf, test } from 'vitest';
import type { check } from '../../lib/check/index.js';
import type { RuleId } from '../../rules/index.js';
import type { DefectName } from '../../server/defects/catalogue.js';
import type { BROKEN_RULE } from '../matrices/expectations.js';

/**
 * Rule ids are a type made from the area files (rules/schema.ts `areaRules`): a check, a
 * defect's expectation or a fixture naming a rule the catalogue lacks fails `npm run
 * typecheck`, before any run. The `@ts-expect-error` lines below are that proof: were the
 * id accepted, the directive itself would fail the type check.
 */
describe('rule ids are typed from the catalogue', () => {
  test('check() takes a catalogue id and refuses any other', () => {
    // check's own signature, doing nothing: what it accepts is what check() accepts.
    const register: typeof check = () => undefined;
    register('IDEM-03', async () => undefined);
    // @ts-expect-error ORDER-99 is no rule of the catalogue
    register('ORDER-99', async () => undefined);
    // @ts-expect-error not even of the form AREA-NN
    register('idem-3', async () => undefined);
    expectTypeOf<'IDEM-03'>().toExtend<RuleId>();
    expectTypeOf<'ORDER-99'>().not.toExtend<RuleId>();
    expectTypeOf<string>().not.toExtend<RuleId>();
  });

  test("a defect's expected rule is a catalogue id", () => {
    // @ts-expect-error ORDER-99 is no rule of the catalogue
    const wrong: (typeof BROKEN_RULE)[DefectName] = 'ORDER-99';
    expect(wrong).toBe('ORDER-99');
  });
});
