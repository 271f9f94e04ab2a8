import type { Answer, Json } from './defect.js';
import { defectsOf } from './defect.js';

/** A bend of problem answers only. */
function problemBend(bend: (body: Json, answer: Answer) => Json | undefined) {
  return () => ({
    answer: (answer: Answer) => {
      if (!answer.problem) return;
      const bent = bend(answer.body, answer);
      if (bent !== undefined) answer.body = bent;
    },
  });
}

/** §2 error object, §7: problem details. */
export const ERR_DEFECTS = defectsOf('ERR', [
  {
    name: 'problem-as-plain-json',
    breaks: 'errors are sent as application/json',
    replaces: problemBend((_body, { reply }) => {
      reply.type('application/json');
      return undefined;
    }),
  },
  {
    name: 'problem-request-id-missing',
    breaks: 'problems carry no request_id',
    replaces: problemBend(({ request_id: _dropped, ...body }) => body),
  },
  {
    name: 'problem-title-missing',
    breaks: 'problems carry no title',
    replaces: problemBend(({ title: _dropped, ...body }) => body),
  },
  {
    name: 'problem-code-renamed',
    breaks: 'a missing token is answered with the code unauthenticated',
    // Renamed consistently, type included: only the code is off the table of §7.
    replaces: problemBend((body) =>
      body.code === 'unauthorized'
        ? {
            ...body,
            code: 'unauthenticated',
            ...(typeof body.type === 'string'
              ? { type: body.type.replace(/#error-.*$/, '#error-unauthenticated') }
              : {}),
          }
        : undefined,
    ),
  },
  {
    name: 'problem-type-underscores',
    breaks: 'problem type URIs keep the underscores of the code',
    replaces: problemBend((body) =>
      typeof body.type === 'string'
        ? { ...body, type: body.type.replace(/#error-.*$/, `#error-${String(body.code)}`) }
        : undefined,
    ),
  },
  {
    name: 'problem-status-field-400',
    breaks: 'the status field of every problem is 400',
    replaces: problemBend((body) => ({ ...body, status: 400 })),
  },
  {
    name: 'problem-instance-route-pattern',
    breaks: 'instance is the route pattern, not the request path',
    replaces: problemBend((body, { request }) =>
      request.routeOptions.url ? { ...body, instance: request.routeOptions.url } : undefined,
    ),
  },
  {
    name: 'problem-not-found-410',
    breaks: 'not_found is sent with HTTP 410',
    replaces: problemBend((body, { reply }) => {
      if (body.code !== 'not_found') return undefined;
      reply.code(410);
      return { ...body, status: 410 };
    }),
  },
  {
    name: 'problem-required-scope-everywhere',
    breaks: 'every 403 carries required_scope',
    replaces: problemBend((body, { reply }) =>
      reply.statusCode === 403
        ? { ...body, required_scope: body.required_scope ?? 'orders:write' }
        : undefined,
    ),
  },
  {
    name: 'problem-errors-without-detail',
    breaks: 'errors[] entries carry message instead of detail',
    replaces: problemBend((body) =>
      Array.isArray(body.errors)
        ? {
            ...body,
            errors: (body.errors as { detail: string }[]).map(({ detail, ...rest }) => ({
              ...rest,
              message: detail,
            })),
          }
        : undefined,
    ),
  },
  {
    name: 'validation-stops-at-first-problem',
    breaks: 'validation_failed lists only the first problem of a body that breaks several rules',
    replaces: problemBend((body) =>
      body.code === 'validation_failed' && Array.isArray(body.errors) && body.errors.length > 1
        ? { ...body, errors: body.errors.slice(0, 1) }
        : undefined,
    ),
  },
]);
