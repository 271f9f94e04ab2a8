import type { HttpResponse } from '../../lib/check/index.js';

/** An `errors[]` entry of a problem (section 2): `detail`, and `pointer` for field errors. */
export interface ErrorEntry {
  detail?: unknown;
  pointer?: unknown;
  [field: string]: unknown;
}

/** The `errors[]` entries of a problem answer; empty when there are none or they are not objects. */
export function errorEntries(res: HttpResponse): ErrorEntry[] {
  const errors = (res.json as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter((e): e is ErrorEntry => typeof e === 'object' && e !== null);
}

/** Every text for people in a problem: `detail` and each `errors[].detail`. */
export function problemTexts(res: HttpResponse): string[] {
  const detail = (res.json as { detail?: unknown } | undefined)?.detail;
  const texts = typeof detail === 'string' ? [detail] : [];
  for (const entry of errorEntries(res)) {
    if (typeof entry.detail === 'string') texts.push(entry.detail);
  }
  return texts;
}

/** The problem's `code`, when it has one. */
export function problemCode(res: HttpResponse): string | undefined {
  const code = (res.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
