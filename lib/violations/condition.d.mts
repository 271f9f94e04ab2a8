// Types of condition.mjs (plain JavaScript, carried as it is by every reproduction).

/** One test on the value at a place of an answer. */
export type Test =
  | { equals: unknown }
  | { oneOf: unknown[] }
  /** A number within, both ends included (`[200, 299]`: a success status). */
  | { between: [number, number] }
  | { matches: string; flags?: string }
  /** Delta-seconds (digits, white space around at most) within the bounds. */
  | { seconds: { min?: number; max?: number } }
  | { present: true }
  | { absent: true }
  | { nonEmpty: true }
  | { type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null' }
  /** An array with an item whose value at the JSON pointer `at` (`''`: the item) passes `is`. */
  | { hasItem: { at: string; is: Test } }
  /** Equal to the value at another place of the same answer. */
  | { sameAs: string }
  /** A media type (parameters aside, case-insensitively). */
  | { mediaType: string }
  /** A comma-separated header naming this directive (Cache-Control, Pragma). */
  | { directive: string }
  /** A problem `type`: `{docs_url}/errors#error-<code, underscores as hyphens>`, an absolute URI. */
  | { problemType: { docsUrl?: string } };

/**
 * What an answer must show for a rule to hold, as data. `at` is `/status`,
 * `/headers/<name>` or `/body[/<JSON pointer>]`. `each`, `count` and
 * `distinct` judge the answers of requests sent together (a race).
 */
export type Condition =
  | { at: string; is: Test }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { each: Condition }
  | { count: Condition; min?: number; max?: number }
  | { distinct: string; among?: Condition; min?: number; max?: number };

/** An answer as conditions read it: lower-case header names, the body parsed when it is JSON. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  json?: unknown;
  text?: string;
}

export function answerAt(answer: Answer | undefined, place: string): unknown;
export function sameValue(a: unknown, b: unknown): boolean;
export function holds(condition: Condition, subject: Answer | readonly Answer[]): boolean;
export function passes(test: Test, value: unknown, answer?: Answer): boolean;
export function pointersOf(condition: Condition): string[];
export function describeCondition(condition: Condition): string;
export function describeTest(test: Test): string;
export function place(pointer: string): string;
