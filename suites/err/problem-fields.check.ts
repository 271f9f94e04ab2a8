import { type Condition, check } from '../../lib/check/index.js';
import { ProblemSchema } from '../schemas/problem.js';
import { ERROR_TABLE, errorAnchor } from './error-table.js';
import { provokeErrors } from './provoke-errors.js';

type Body = Record<string, unknown>;

/** Every code of the error table with its status, as data: the one pair an answer must be. */
const TABLE_PAIRS: Condition = {
  any: Object.entries(ERROR_TABLE).map(([code, status]) => ({
    all: [
      { at: '/body/code', is: { equals: code } },
      { at: '/status', is: { equals: status } },
    ],
  })),
};
const bodyOf = (json: unknown): Body | undefined =>
  json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Body) : undefined;

// Section 7: "Errors are application/problem+json (RFC 9457)".
check('ERR-01', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    const type = res.header('content-type');
    ctx.expectTrue(type?.split(';')[0]?.trim().toLowerCase() === 'application/problem+json', {
      code: 'MEDIA_TYPE',
      pointer: '/headers/content-type',
      expected: 'application/problem+json',
      received: type ?? null,
      message: `${what}: the error is not application/problem+json`,
      exchange: res.exchange,
      must: { at: '/headers/content-type', is: { mediaType: 'application/problem+json' } },
    });
  }
});

// Section 2, error object: type, title, status, detail, instance, code, request_id, of their types.
check('ERR-02', async (ctx) => {
  for (const { res } of await provokeErrors(ctx)) {
    ctx.expectShape(res.json, ProblemSchema, '/body', res.exchange);
  }
});

// Section 2, error object: `type` is `{docs_url}/errors#error-<code>`, underscores as hyphens. The
// docs_url is the profile's; without one, the first problem's, and every other must agree.
check('ERR-03', async (ctx) => {
  let docsUrl = ctx.dialect.docsUrl;
  // The same judgement as data: the documented URI for the answer's own code, under one docs_url.
  const documented = (): Condition => ({
    at: '/body/type',
    is: { problemType: docsUrl === undefined ? {} : { docsUrl } },
  });
  for (const { what, res } of await provokeErrors(ctx)) {
    const body = bodyOf(res.json);
    const { type, code } = body ?? {};
    if (typeof code !== 'string' || typeof type !== 'string') {
      ctx.violate({
        code: 'PROBLEM',
        pointer: '/body/type',
        expected: '{docs_url}/errors#error-<code>',
        received: type ?? '(missing)',
        message: `${what}: no type and code to compare`,
        exchange: res.exchange,
        must: documented(),
      });
      continue;
    }
    const anchor = errorAnchor(code);
    if (docsUrl === undefined && type.endsWith(anchor)) {
      docsUrl = type.slice(0, -anchor.length);
      ctx.note(`docs_url learned from the first problem: ${docsUrl}`);
    }
    const expected = `${docsUrl ?? '{docs_url}'}${anchor}`;
    let absolute = false;
    try {
      absolute = new URL(type).protocol.length > 0;
    } catch {
      absolute = false;
    }
    ctx.expectTrue(type === expected && absolute, {
      code: 'PROBLEM',
      pointer: '/body/type',
      expected,
      received: type,
      message: `${what}: type must be the documentation address of ${code}`,
      exchange: res.exchange,
      must: documented(),
    });
  }
});

// Section 2, error object: `status` is the HTTP status.
check('ERR-04', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    ctx.expectTrue(bodyOf(res.json)?.status === res.status, {
      code: 'PROBLEM',
      pointer: '/body/status',
      expected: res.status,
      received: bodyOf(res.json)?.status ?? '(missing)',
      message: `${what}: status must equal the HTTP status`,
      exchange: res.exchange,
      must: { at: '/body/status', is: { sameAs: '/status' } },
    });
  }
});

// Section 2, error object: `instance` is the request path (contract: with or without the query).
check('ERR-05', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    const path = res.requestPath.split('?')[0] ?? res.requestPath;
    const instance = bodyOf(res.json)?.instance;
    ctx.expectTrue(instance === path || instance === res.requestPath, {
      code: 'PROBLEM',
      pointer: '/body/instance',
      expected: path,
      received: instance ?? '(missing)',
      message: `${what}: instance must be the request path`,
      exchange: res.exchange,
      must: { at: '/body/instance', is: { oneOf: [...new Set([path, res.requestPath])] } },
    });
  }
});

// Section 7: the error table pairs every code with its status; clients rely on `code`, which never changes.
check('ERR-06', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    const code = bodyOf(res.json)?.code;
    const documented = typeof code === 'string' ? ERROR_TABLE[code] : undefined;
    ctx.expectTrue(documented !== undefined && documented === res.status, {
      code: documented === undefined ? 'VALUE' : 'STATUS',
      pointer: documented === undefined ? '/body/code' : '/status',
      expected:
        documented === undefined ? 'a code of the error table' : `HTTP ${documented} for ${code}`,
      received: documented === undefined ? (code ?? '(missing)') : res.status,
      message:
        documented === undefined
          ? `${what}: the code is not one the API document defines`
          : `${what}: ${code} goes with HTTP ${documented}, not ${res.status}`,
      exchange: res.exchange,
      must: TABLE_PAIRS,
    });
  }
});

// Section 2, error object: decline_code "only on card_declined", required_scope "only on insufficient_scope".
check('ERR-07', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    const body = bodyOf(res.json) ?? {};
    for (const [field, owner] of [
      ['decline_code', 'card_declined'],
      ['required_scope', 'insufficient_scope'],
    ] as const) {
      if (body.code === owner) continue;
      ctx.expectTrue(!(field in body), {
        code: 'PROBLEM',
        pointer: `/body/${field}`,
        expected: '(absent)',
        received: body[field],
        message: `${what}: ${field} belongs only to ${owner}, not to ${String(body.code)}`,
        exchange: res.exchange,
        must: {
          any: [
            { at: '/body/code', is: { equals: owner } },
            { at: `/body/${field}`, is: { absent: true } },
          ],
        },
      });
    }
  }
});

// Section 2 (`errors`: each entry has `detail`; field errors also a pointer) and section 7
// (validation_failed: "Each problem is in errors[]").
check('ERR-08', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    const body = bodyOf(res.json) ?? {};
    const errors = body.errors;
    if (body.code === 'validation_failed') {
      ctx.expectTrue(Array.isArray(errors) && errors.length > 0, {
        code: 'PROBLEM',
        pointer: '/body/errors',
        expected: 'a non-empty array',
        received: errors ?? '(missing)',
        message: `${what}: validation_failed lists its problems in errors[]`,
        exchange: res.exchange,
      });
    }
    if (errors === undefined) continue;
    if (!Array.isArray(errors)) {
      ctx.violate({
        code: 'PROBLEM',
        pointer: '/body/errors',
        expected: 'an array of objects',
        received: errors,
        message: `${what}: errors must be an array`,
        exchange: res.exchange,
      });
      continue;
    }
    errors.forEach((entry: unknown, index) => {
      const e = bodyOf(entry);
      ctx.expectTrue(typeof e?.detail === 'string' && e.detail.length > 0, {
        code: 'PROBLEM',
        pointer: `/body/errors/${index}/detail`,
        expected: 'a non-empty string',
        received: e?.detail ?? '(missing)',
        message: `${what}: every errors[] entry has a detail`,
        exchange: res.exchange,
        must: { at: `/body/errors/${index}/detail`, is: { nonEmpty: true } },
      });
      // The member holding the pointer is the profile's (`dialect.errors.member`, reference: pointer).
      const member = ctx.dialect.errors.member;
      if (e !== undefined && member in e) {
        ctx.expectTrue(typeof e[member] === 'string', {
          code: 'PROBLEM',
          pointer: `/body/errors/${index}/${member}`,
          expected: 'a string',
          received: e[member],
          message: `${what}: a pointer is a string`,
          exchange: res.exchange,
        });
      }
    });
  }
});

// Section 2, error object: request_id is "to be quoted when contacting support", so it names one answer.
check('ERR-10', async (ctx) => {
  const seen = new Map<string, string>();
  for (const { what, res } of await provokeErrors(ctx)) {
    const id = bodyOf(res.json)?.request_id;
    if (typeof id !== 'string') continue; // ERR-02 judges a missing request_id
    const earlier = seen.get(id);
    ctx.expectTrue(earlier === undefined, {
      code: 'VALUE',
      pointer: '/body/request_id',
      expected: 'an id no other answer has',
      received: id,
      message: `${what}: the same request_id as ${earlier ?? ''}`,
      exchange: res.exchange,
    });
    seen.set(id, what);
  }
});
