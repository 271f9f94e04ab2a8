import type { FastifyRequest } from 'fastify';
import type { HasDefect } from './catalogue.js';

const PROBLEM_DEFECTS = [
  'problem-request-id-missing',
  'problem-title-missing',
  'problem-code-renamed',
  'problem-type-underscores',
  'problem-status-field-400',
  'problem-instance-route-pattern',
  'problem-not-found-410',
  'problem-required-scope-everywhere',
  'problem-errors-without-detail',
  'problem-errors-without-pointer',
  'decline-code-on-every-402',
  'validation-errors-empty',
] as const;

/**
 * The problem+json fields (§2 error object) as a defective server fills them,
 * and the HTTP status it sends. Without such a defect, body and status as given.
 */
export function bentProblem(
  body: Record<string, unknown>,
  request: FastifyRequest,
  hasDefect: HasDefect,
): { body: Record<string, unknown>; status: number } {
  const problem = { code: String(body.code), status: Number(body.status) };
  if (!PROBLEM_DEFECTS.some((name) => hasDefect(name))) return { body, status: problem.status };
  const bent = { ...body };
  let status = problem.status;
  if (hasDefect('problem-request-id-missing')) delete bent.request_id;
  if (hasDefect('problem-title-missing')) delete bent.title;
  if (hasDefect('problem-code-renamed') && problem.code === 'unauthorized') {
    // Renamed consistently, type included: only the code is off the table of §7.
    bent.code = 'unauthenticated';
    if (typeof bent.type === 'string')
      bent.type = bent.type.replace(/#error-.*$/, '#error-unauthenticated');
  }
  if (hasDefect('problem-type-underscores') && typeof bent.type === 'string') {
    bent.type = bent.type.replace(/#error-.*$/, `#error-${problem.code}`);
  }
  if (hasDefect('problem-status-field-400')) bent.status = 400;
  if (hasDefect('problem-instance-route-pattern') && request.routeOptions.url) {
    bent.instance = request.routeOptions.url;
  }
  if (hasDefect('problem-not-found-410') && problem.code === 'not_found') {
    status = 410;
    bent.status = 410;
  }
  if (hasDefect('problem-required-scope-everywhere') && status === 403) {
    bent.required_scope ??= 'orders:write';
  }
  if (hasDefect('problem-errors-without-detail') && Array.isArray(bent.errors)) {
    bent.errors = (bent.errors as { detail: string; pointer?: string }[]).map(
      ({ detail, ...rest }) => ({ ...rest, message: detail }),
    );
  }
  if (hasDefect('problem-errors-without-pointer') && Array.isArray(bent.errors)) {
    bent.errors = (bent.errors as { detail: string; pointer?: string }[]).map(({ detail }) => ({
      detail,
    }));
  }
  if (
    hasDefect('validation-errors-empty') &&
    problem.code === 'validation_failed' &&
    request.method === 'POST' &&
    request.routeOptions.url?.endsWith('/orders')
  ) {
    bent.errors = [];
  }
  if (hasDefect('decline-code-on-every-402') && status === 402) {
    bent.decline_code ??= 'generic_decline';
  }
  return { body: bent, status };
}
