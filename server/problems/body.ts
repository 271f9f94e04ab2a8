import type { ApiProblem } from './api-problem.js';
import { problemDefinition } from './codes.js';
import { oauthErrorFor } from './oauth-error.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemSite {
  docsUrl: string;
  /** The request path (contract §2: `instance` is the request path). */
  instance: string;
  requestId: string;
  /** The token endpoint adds RFC 6749 `error` / `error_description`. */
  oauth: boolean;
}

/** §2 error object / §7: type, title, status, detail, instance, code, request_id and the extras. */
export function problemBody(problem: ApiProblem, site: ProblemSite): Record<string, unknown> {
  const { code, options } = problem;
  const body: Record<string, unknown> = {
    type: `${site.docsUrl}/errors#error-${code.replaceAll('_', '-')}`,
    title: problemDefinition(code).title,
    status: problem.status,
    detail: problem.detail,
    instance: site.instance,
    code,
    request_id: site.requestId,
  };
  if (options.errors && options.errors.length > 0) body.errors = options.errors;
  // §2: decline_code only on card_declined, required_scope only on insufficient_scope.
  if (code === 'card_declined' && options.declineCode !== undefined) {
    body.decline_code = options.declineCode;
  }
  if (code === 'insufficient_scope' && options.requiredScope !== undefined) {
    body.required_scope = options.requiredScope;
  }
  if (site.oauth) {
    body.error = options.oauthError ?? oauthErrorFor(code);
    body.error_description = problem.detail;
  }
  return body;
}

/** The path part of a request target, as sent (no query string). */
export function pathOfUrl(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
