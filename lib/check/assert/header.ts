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
  const base = { pointer: `/headers/${name.toLowerCase()}`, expected, exchange: res.exchange };
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
  const ok =
    typeof matcher === 'string'
      ? value === matcher
      : matcher instanceof RegExp
        ? matcher.test(value)
        : matcher(value);
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
  return [
    {
      code: 'HEADER',
      pointer: `/headers/${name.toLowerCase()}`,
      expected: null,
      received: value,
      message: `header ${name} must not be sent${why ? `: ${why}` : ''}`,
      exchange: res.exchange,
    },
  ];
}

function describe(matcher: HeaderMatcher, what?: string): string {
  if (what) return what;
  if (typeof matcher === 'string') return `"${matcher}"`;
  if (matcher instanceof RegExp) return `a value matching ${matcher}`;
  return 'a value the rule accepts';
}
