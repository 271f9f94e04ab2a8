import type { z } from 'zod';
import { pointerOf, valueAt } from '../../evidence/json-pointer.js';
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
    return {
      code: 'SCHEMA',
      pointer: at,
      expected,
      received: valueAt(value, pointerOf(issue.path)) ?? '(missing)',
      message: `${at || '(body)'}: ${issue.message}`,
      ...(exchange === undefined ? {} : { exchange }),
    };
  });
  return { violations };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.message;
}
