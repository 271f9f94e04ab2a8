import { randomBytes } from 'node:crypto';
import { type ClientExchange, pathOf } from './exchange.js';
import { isRecord, jsonOf } from './facts.js';

/** An answer as the layer hands it to the client. Header names lower-cased. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends a client's request on to the target as it came; answers 502 itself when none came. */
export type Forward = (ex: ClientExchange, body: Buffer | undefined) => Promise<Answer>;

/** A request of the layer's own to the target's API (never part of the client's traffic). */
export type OwnRequest = (req: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}) => Promise<Answer>;

const PROBLEM_TYPE = 'application/problem+json';

/** Titles of the codes the layer answers itself, as the reference words them. */
const TITLES: Record<string, string> = {
  rate_limited: 'Too many requests',
};

/**
 * A problem answer the layer gives itself (a played 429), shaped as the
 * sandbox's own (API document section 2; `docsUrl` taken from the sandbox's
 * answers): a client cannot tell it from one the sandbox made.
 */
function problemAnswer(input: {
  docsUrl: string;
  status: number;
  code: string;
  detail: string;
  /** The request path (`instance`). */
  path: string;
  /** The token endpoint also answers RFC 6749 `error` and `error_description`. */
  oauthError?: string;
  headers?: Record<string, string>;
}): Answer {
  const requestId = `req_${randomBytes(12).toString('hex')}`;
  const body: Record<string, unknown> = {
    type: `${input.docsUrl}/errors#error-${input.code.replaceAll('_', '-')}`,
    title: TITLES[input.code] ?? input.code,
    status: input.status,
    detail: input.detail,
    instance: input.path,
    code: input.code,
    request_id: requestId,
  };
  if (input.oauthError) {
    body.error = input.oauthError;
    body.error_description = input.detail;
  }
  return {
    status: input.status,
    headers: {
      'content-type': PROBLEM_TYPE,
      'request-id': requestId,
      ...(input.oauthError ? { 'cache-control': 'no-store', pragma: 'no-cache' } : {}),
      ...input.headers,
    },
    body: JSON.stringify(body),
  };
}

/**
 * The `reworded` situation: a problem answer's `title` and `detail` (and a
 * token refusal's `error_description`, the same text) in words that change
 * with every answer and hold none of the usual ones ("expired", "retry",
 * "later", "declined", "exists"), as the API document allows (sections 2, 7
 * and 9). Its `code` and everything else stay. Answers that are not a
 * problem with a code are handed back as they are.
 */
export function reworded(answer: Answer, n: number): Answer | undefined {
  const body = jsonOf(answer.body);
  if (!isRecord(body) || typeof body.code !== 'string') return undefined;
  const out: Record<string, unknown> = { ...body };
  if ('title' in body) out.title = `Sandbox wording ${n}`;
  if ('detail' in body) out.detail = WORDINGS[n % WORDINGS.length]?.replace('{n}', String(n));
  if ('error_description' in body) out.error_description = out.detail;
  return { ...answer, body: JSON.stringify(out) };
}

const WORDINGS = [
  'Answer {n} of this sandbox, worded anew: only its code member is stable.',
  'Wording {n}: the sandbox phrases this differently each time; read the code.',
  'Note {n} for people. Programs read the code member instead.',
];

/** A played 429 (the 429 situations), worded as the sandbox words its own. */
export function tooManyAnswer(docsUrl: string, ex: ClientExchange, seconds: number): Answer {
  const token = ex.kind === 'token';
  const after = `Retry after ${seconds} second${seconds === 1 ? '' : 's'}.`;
  return problemAnswer({
    docsUrl,
    status: 429,
    code: 'rate_limited',
    detail: `Too many ${token ? 'token' : ex.cls} requests for this key. ${after}`,
    path: pathOf(ex.url),
    ...(token ? { oauthError: 'temporarily_unavailable' } : {}),
    headers: { 'retry-after': String(seconds) },
  });
}

/** The sandbox's own 429 once its window ends within a second: Retry-After: 1, and its detail says so. */
export function waitOneSecond(answer: Answer): Answer {
  const body = jsonOf(answer.body);
  let text = answer.body;
  if (isRecord(body) && typeof body.detail === 'string') {
    const detail = body.detail.replace(/\d+ seconds?/, '1 second');
    text = JSON.stringify({
      ...body,
      detail,
      ...('error_description' in body ? { error_description: detail } : {}),
    });
  }
  return { ...answer, headers: { ...answer.headers, 'retry-after': '1' }, body: text };
}
