import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import { entryPointer, pointerInForm } from '../../lib/check/index.js';
import { errorEntries } from './problem-text.js';

/**
 * Section 7 `validation_failed`: 422, and the problem is listed in `errors[]`,
 * each entry with a `detail` (section 2). Which entry, and its pointer, is
 * judged by the pointer rule (dialect), not here.
 */
export function expectValidationFailed(ctx: CheckContext, res: HttpResponse): boolean {
  if (!ctx.expectProblem(res, { status: 422, code: 'validation_failed' })) return false;
  const described = errorEntries(res).filter(
    (entry) => typeof entry.detail === 'string' && entry.detail.length > 0,
  );
  return ctx.expectTrue(described.length > 0, {
    code: 'PROBLEM',
    pointer: '/body/errors',
    expected: 'at least one errors[] entry with a detail',
    received: (res.json as { errors?: unknown } | undefined)?.errors ?? '(missing)',
    message: 'validation_failed lists each problem in errors[], each entry with a detail',
    exchange: res.exchange,
  });
}

/**
 * That some `errors[]` entry points at `pointer` (an RFC 6901 pointer into the
 * body sent), read from the member and in the form the dialect says
 * (`dialect.errors`; contract section 2: `pointer`, RFC 6901).
 */
export function expectPointer(ctx: CheckContext, res: HttpResponse, pointer: string): boolean {
  const { errors } = ctx.dialect;
  const entries = errorEntries(res);
  const pointers = entries.map((entry) => entryPointer(errors, entry));
  const written = pointerInForm(errors, pointer);
  return ctx.expectTrue(pointers.includes(pointer), {
    code: 'VALUE',
    pointer: '/body/errors',
    expected: `an entry with ${errors.member} "${written}"`,
    received: entries.map((entry) => entry[errors.member]),
    message: `no errors[] entry points at ${written}`,
    exchange: res.exchange,
  });
}
