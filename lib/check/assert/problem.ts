import { headOf } from '../../evidence/detached.js';
import type { Condition, Test } from '../../violations/condition.mjs';
import type { Violation } from '../../violations/violation.js';
import type { HttpResponse } from '../context-api.js';

const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * Status and `code` of an error answer (API document section 7). The media
 * type and the other fields are `problemFieldViolations`' job, so that one
 * broken field fails the ERR rule that owns it rather than every check.
 */
export function problemViolations(
  res: HttpResponse,
  expected: { status: number; code: string },
  unless?: Condition,
): Violation[] {
  const out: Violation[] = [];
  const exchange = res.exchange;
  const body = res.json as Record<string, unknown> | undefined;
  const code = body && typeof body === 'object' ? body.code : undefined;
  // The judgement as data: status and code at once, whichever of them broke.
  const refusal: Condition = {
    all: [
      { at: '/status', is: { equals: expected.status } },
      { at: '/body/code', is: { equals: expected.code } },
    ],
  };
  // A racer the race may let through instead (`unless`): judged only when it was refused.
  const must: Condition = unless ? { any: [unless, refusal] } : refusal;
  if (res.status !== expected.status) {
    out.push({
      code: 'STATUS',
      pointer: '/status',
      expected: expected.status,
      received: res.status,
      message: `expected HTTP ${expected.status} ${expected.code}, got ${res.status}${
        typeof code === 'string' ? ` ${code}` : ''
      }`,
      exchange,
      must,
    });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    out.push({
      code: 'NOT_JSON',
      pointer: '/body',
      expected: 'a problem+json object',
      received: res.unreadable ?? headOf(res.text, 200),
      message: res.unreadable
        ? `the error body was not read: ${res.unreadable}`
        : 'the error body is not a JSON object',
      exchange,
      must,
    });
  } else if (code !== expected.code) {
    out.push({
      code: 'VALUE',
      pointer: '/body/code',
      expected: expected.code,
      received: code ?? '(missing)',
      message: `expected code ${expected.code}, got ${typeof code === 'string' ? code : 'none'}`,
      exchange,
      must,
    });
  }
  return out;
}

/**
 * Every field of the error object, sections 2 and 7. `docsUrl` is the expected
 * `{docs_url}`; when undefined it is learned from this answer and handed back.
 */
export function problemFieldViolations(
  res: HttpResponse,
  requestPath: string,
  docsUrl: string | undefined,
): { violations: Violation[]; docsUrl: string | undefined } {
  const out: Violation[] = [];
  const exchange = res.exchange;
  // Each with its condition as data (`must`), the one the check applies here.
  const add = (
    pointer: string,
    expected: unknown,
    received: unknown,
    message: string,
    test: Test,
  ) =>
    out.push({
      code: 'PROBLEM',
      pointer: `/body${pointer}`,
      expected,
      received,
      message,
      exchange,
      must: { at: `/body${pointer}`, is: test },
    });

  if (mediaTypeOf(res) !== PROBLEM_MEDIA_TYPE) {
    out.push({
      code: 'MEDIA_TYPE',
      pointer: '/headers/content-type',
      expected: PROBLEM_MEDIA_TYPE,
      received: res.header('content-type') ?? null,
      message: `errors are ${PROBLEM_MEDIA_TYPE} (section 7)`,
      exchange,
      must: { at: '/headers/content-type', is: { mediaType: PROBLEM_MEDIA_TYPE } },
    });
  }
  const body = res.json;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    add(
      '',
      'a JSON object',
      res.unreadable ?? headOf(res.text, 200),
      res.unreadable
        ? `the error body was not read: ${res.unreadable}`
        : 'the error body is not a JSON object',
      { type: 'object' },
    );
    return { violations: out, docsUrl };
  }
  const p = body as Record<string, unknown>;
  const str = (field: string) => {
    const value = p[field];
    if (typeof value !== 'string' || value.length === 0) {
      add(
        `/${field}`,
        'a non-empty string',
        value ?? '(missing)',
        `${field} must be a non-empty string`,
        { nonEmpty: true },
      );
      return undefined;
    }
    return value;
  };
  const code = str('code');
  str('title');
  str('detail');
  str('request_id');
  const type = str('type');
  const instance = str('instance');

  if (p.status !== res.status) {
    add('/status', res.status, p.status ?? '(missing)', 'status must equal the HTTP status', {
      sameAs: '/status',
    });
  }
  if (instance !== undefined) {
    const path = requestPath.split('?')[0];
    if (instance !== requestPath && instance !== path) {
      add('/instance', path, instance, 'instance must be the request path', {
        oneOf: [...new Set([requestPath, path])],
      });
    }
  }
  let learned = docsUrl;
  if (type !== undefined && code !== undefined) {
    const anchor = `/errors#error-${code.replace(/_/g, '-')}`;
    if (learned === undefined && type.endsWith(anchor)) learned = type.slice(0, -anchor.length);
    const want = `${learned ?? '{docs_url}'}${anchor}`;
    // As data: the documented URI for the answer's own code, under the run's one docs_url.
    const test: Test = { problemType: learned === undefined ? {} : { docsUrl: learned } };
    if (type !== want)
      add('/type', want, type, 'type must be {docs_url}/errors#error-<code with hyphens>', test);
    else if (!isAbsoluteUri(type))
      add('/type', 'an absolute URI', type, 'type must be a URI', test);
  }
  if (code !== 'card_declined' && 'decline_code' in p) {
    add('/decline_code', '(absent)', p.decline_code, 'decline_code belongs only to card_declined', {
      absent: true,
    });
  }
  if (code === 'card_declined' && (typeof p.decline_code !== 'string' || !p.decline_code)) {
    add(
      '/decline_code',
      'the bank reason',
      p.decline_code ?? '(missing)',
      'card_declined carries decline_code',
      { nonEmpty: true },
    );
  }
  if (code !== 'insufficient_scope' && 'required_scope' in p) {
    add(
      '/required_scope',
      '(absent)',
      p.required_scope,
      'required_scope belongs only to insufficient_scope',
      { absent: true },
    );
  }
  if (
    code === 'insufficient_scope' &&
    (typeof p.required_scope !== 'string' || !p.required_scope)
  ) {
    add(
      '/required_scope',
      'the scope needed',
      p.required_scope ?? '(missing)',
      'insufficient_scope carries required_scope',
      { nonEmpty: true },
    );
  }
  if ('errors' in p) {
    if (!Array.isArray(p.errors)) {
      add('/errors', 'an array', p.errors, 'errors must be an array of objects', { type: 'array' });
    } else {
      p.errors.forEach((entry, index) => {
        const detail = (entry as { detail?: unknown } | null)?.detail;
        if (typeof detail !== 'string' || detail.length === 0) {
          add(
            `/errors/${index}/detail`,
            'a non-empty string',
            detail ?? '(missing)',
            'each errors[] entry has a detail',
            { nonEmpty: true },
          );
        }
      });
    }
  }
  return { violations: out, docsUrl: learned };
}

function mediaTypeOf(res: HttpResponse): string | undefined {
  return res.header('content-type')?.split(';')[0]?.trim().toLowerCase();
}

function isAbsoluteUri(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}
