import type { z } from 'zod';
import type { FieldError } from '../problems/api-problem.js';
import { jsonPointer } from './json-pointer.js';

type Issue = z.core.$ZodIssue;

const ARTICLE: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
};

function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${issue.minimum} characters long`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} entries`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} entries`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}

function label(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'The body' : path.map(String).join('.');
}

/**
 * zod issues as `errors[]` entries (contract §2: `{detail, pointer}` with an
 * RFC 6901 pointer). §4: unknown fields and missing required fields are each
 * reported at their own pointer.
 */
export function issuesToErrors(issues: readonly Issue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        errors.push({ detail: `${label(path)} is not a known field.`, pointer: jsonPointer(path) });
      }
      continue;
    }
    errors.push({
      detail: `${label(issue.path)} ${describe(issue)}.`,
      pointer: jsonPointer(issue.path),
    });
  }
  return errors;
}
