import { describeTest, passes, type Test } from '../../violations/condition.mjs';
import type { Violation } from '../../violations/violation.js';
import type { HeaderMatcher, HttpResponse } from '../context-api.js';

export function headerViolations(
  res: HttpResponse,
  name: string,
  matcher: HeaderMatcher,
  what?: string,
): Violation[] {
  const value = res.header(name);
  const expected = describe(matcher, what);
  const pointer = `/headers/${name.toLowerCase()}`;
  // The condition as data when the matcher is one: a reproduction judges it again.
  const test = testOf(matcher);
  const base = {
    pointer,
    expected,
    exchange: res.exchange,
    ...(test ? { must: { at: pointer, is: test } } : {}),
  };
  if (value === undefined) {
    return [
      {
        ...base,
        code: 'HEADER',
        received: null,
        message: `header ${name} is missing; expected ${expected}`,
      },
    ];
  }
  const ok = test ? passes(test, value) : (matcher as (value: string) => boolean)(value);
  if (ok) return [];
  return [
    {
      ...base,
      code: 'HEADER',
      received: value,
      message: `header ${name} is "${value}"; expected ${expected}`,
    },
  ];
}

export function absentHeaderViolations(res: HttpResponse, name: string, why?: string): Violation[] {
  const value = res.header(name);
  if (value === undefined) return [];
  const pointer = `/headers/${name.toLowerCase()}`;
  return [
    {
      code: 'HEADER',
      pointer,
      expected: null,
      received: value,
      message: `header ${name} must not be sent${why ? `: ${why}` : ''}`,
      exchange: res.exchange,
      must: { at: pointer, is: { absent: true } },
    },
  ];
}

/** The matcher as a test of condition.mjs: a string is the value, a pattern its source. */
function testOf(matcher: HeaderMatcher): Test | undefined {
  if (typeof matcher === 'string') return { equals: matcher };
  if (matcher instanceof RegExp) {
    return { matches: matcher.source, ...(matcher.flags ? { flags: matcher.flags } : {}) };
  }
  return typeof matcher === 'function' ? undefined : matcher;
}

function describe(matcher: HeaderMatcher, what?: string): string {
  if (what) return what;
  if (typeof matcher === 'string') return `"${matcher}"`;
  if (matcher instanceof RegExp) return `a value matching ${matcher}`;
  if (typeof matcher === 'object') return `a value that ${describeTest(matcher)}`;
  return 'a value the rule accepts';
}
