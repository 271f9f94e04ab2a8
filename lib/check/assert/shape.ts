import type { z } from 'zod';
import { pointerOf, valueAt } from '../../evidence/json-pointer.js';
import type { Test } from '../../violations/condition.mjs';
import type { Violation } from '../../violations/violation.js';

/** Maps zod issues to SCHEMA violations, one per issue, each at its JSON pointer. */
export function shapeViolations<S extends z.ZodType>(
  value: unknown,
  schema: S,
  pointer: string,
  exchange?: number,
): { data?: z.output<S>; violations: Violation[] } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { data: parsed.data, violations: [] };
  const violations = parsed.error.issues.map((issue): Violation => {
    const at = pointer + pointerOf(issue.path);
    const expected = 'expected' in issue ? issue.expected : describeIssue(issue);
    const test = testOf(issue);
    return {
      code: 'SCHEMA',
      pointer: at,
      expected,
      received: valueAt(value, pointerOf(issue.path)) ?? '(missing)',
      message: `${at || '(body)'}: ${issue.message}`,
      ...(exchange === undefined ? {} : { exchange }),
      // The issues whose condition is plain data; zod's others (formats, lengths) stay the check's.
      ...(test && exchange !== undefined && at.startsWith('/body')
        ? { must: { at, is: test } }
        : {}),
    };
  });
  return { violations };
}

const TYPES = new Set(['string', 'number', 'boolean', 'object', 'array', 'null']);

/** A wrong type or a value outside a literal set, as a test of condition.mjs. */
function testOf(issue: z.core.$ZodIssue): Test | undefined {
  if (issue.code === 'invalid_type') {
    const type = issue.expected === 'int' ? 'integer' : issue.expected;
    return TYPES.has(type) || type === 'integer' ? ({ type } as Test) : undefined;
  }
  if (issue.code === 'invalid_value') return { oneOf: [...issue.values] };
  return undefined;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.message;
}
