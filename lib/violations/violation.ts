import type { Condition } from './condition.mjs';

/**
 * A violation: the target broke a rule. A value with a stable `code`, never an
 * exception thrown at the user. `pointer` is a JSON Pointer (RFC 6901) into the
 * response: `/status`, `/headers/retry-after`, `/body/errors/0/pointer`.
 */
const VIOLATION_CODES = {
  STATUS: 'the HTTP status is not the one the rule requires',
  HEADER: 'a response header is missing or has the wrong value',
  MEDIA_TYPE: 'the response media type is wrong',
  NOT_JSON: 'the response body is not the JSON the rule requires',
  SCHEMA: 'the response body does not have the required shape',
  VALUE: 'a value in the response differs from what the rule requires',
  PROBLEM: 'an error response is not a complete problem+json object',
  STATE: "the target's state after the call is not what the rule requires",
  LEAK: 'the response discloses something it must not',
} as const;

type ViolationCode = keyof typeof VIOLATION_CODES;

export interface Violation {
  code: ViolationCode;
  /** Where in the response (or state) the rule broke. */
  pointer: string;
  expected: unknown;
  received: unknown;
  /** One sentence for people. */
  message: string;
  /** Id of the evidence exchange that shows it, when one does. */
  exchange?: number;
  /**
   * What that exchange's answer must show for the rule to hold, where
   * `pointer` and `expected` alone cannot say (a model's step: status,
   * header and order at once): a standalone reproduction judges these again.
   */
  holds?: { pointer: string; equals: unknown }[];
  /**
   * The rule's condition as data: what the answer of `exchange` (or the
   * answers of `exchanges`, sent together) must show for the rule to hold. The
   * check judged with it; a reproduction judges it again on the answer it
   * gets, so a server that breaks the rule another way still fails.
   */
  must?: Condition;
  /** Requests sent together whose answers `must` judges as one (a race): their exchange ids. */
  exchanges?: number[];
  /** The sentence of the document this judgement rests on, when it is not the rule's first. */
  sentence?: { section: string; quote: string };
}
