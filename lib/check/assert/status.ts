import type { Violation } from '../../violations/violation.js';
import type { HttpResponse } from '../context-api.js';

export function statusViolations(
  res: HttpResponse,
  expected: number | readonly number[],
): Violation[] {
  const allowed = typeof expected === 'number' ? [expected] : [...expected];
  if (allowed.includes(res.status)) return [];
  const code = (res.json as { code?: unknown } | undefined)?.code;
  return [
    {
      code: 'STATUS',
      pointer: '/status',
      expected: allowed.length === 1 ? allowed[0] : allowed,
      received: res.status,
      message: `expected HTTP ${allowed.join(' or ')}, got ${res.status}${
        typeof code === 'string' ? ` (${code})` : ''
      }`,
      exchange: res.exchange,
      must: { at: '/status', is: { oneOf: allowed } },
    },
  ];
}
