import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import { type AnswerKind, HarnessError, requireId } from '../../lib/check/index.js';
import { problemCode } from './problem-text.js';

function describe(res: HttpResponse): string {
  const code = problemCode(res);
  return `HTTP ${res.status}${code ? ` ${code}` : ''}`;
}

/** A success (2xx) where the rule requires the request to be accepted; the exact 2xx is another rule's. */
export function expectSuccess(ctx: CheckContext, res: HttpResponse, what: string): boolean {
  return ctx.expectTrue(res.status >= 200 && res.status < 300, {
    code: 'STATUS',
    pointer: '/status',
    expected: '2xx',
    received: res.status,
    message: `${what}: expected success, got ${describe(res)}`,
    exchange: res.exchange,
    must: { at: '/status', is: { between: [200, 299] } },
  });
}

/**
 * A step the check builds on (placing the order it then cancels, say). When
 * it fails, the check cannot judge its own rule: a set-up error, never a
 * violation of this rule (another check judges that step).
 */
export function requireSuccess(res: HttpResponse, what: string): Record<string, unknown> {
  if (res.status < 200 || res.status >= 300) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `${what} failed: ${describe(res)} (evidence #${res.exchange})`,
    );
  }
  const body = res.json;
  // A 204 (or any answer without a JSON object) is a success with nothing in it.
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/**
 * The id of an object a step created, where the dialect shows it
 * (`dialect.answers.<kind>.id`); without one there, the check is not
 * verifiable and says which profile field would let it run.
 */
export function idOf(
  ctx: Pick<CheckContext, 'dialect'>,
  body: unknown,
  what: string,
  kind: AnswerKind = 'order',
): string {
  return requireId(ctx.dialect, kind, body, what);
}

/** The id of the object a judged answer returned; without one where the profile says, not verifiable. */
export function answeredId(
  ctx: CheckContext,
  res: HttpResponse,
  what: string,
  kind: AnswerKind = 'order',
): string {
  return requireId(ctx.dialect, kind, res.json, what, res.exchange);
}
