import { type ProblemCode, problemDefinition } from './codes.js';

/** One entry of `errors[]` (contract §2): `pointer` is a JSON Pointer, or a query parameter name. */
export interface FieldError {
  detail: string;
  pointer?: string;
}

export interface ProblemOptions {
  errors?: readonly FieldError[];
  /** §2: only on `card_declined`. */
  declineCode?: string;
  /** §2: only on `insufficient_scope`. */
  requiredScope?: string;
  /** Overrides the code's usual status (413 for a body too large, which §7 files under validation_failed). */
  status?: number;
  /** Response headers that belong to the refusal (WWW-Authenticate, Retry-After, …). */
  headers?: Readonly<Record<string, string>>;
  /** RFC 6749 §5.2 `error` at the token endpoint; otherwise derived from the code there. */
  oauthError?: string;
}

/**
 * A refusal the API document describes. Thrown anywhere in a request; the
 * error handler (problems/error-handler.ts) turns it into problem+json.
 */
export class ApiProblem extends Error {
  override name = 'ApiProblem';
  readonly code: ProblemCode;
  readonly status: number;
  readonly options: ProblemOptions;

  constructor(code: ProblemCode, detail: string, options: ProblemOptions = {}) {
    super(detail);
    this.code = code;
    this.status = options.status ?? problemDefinition(code).status;
    this.options = options;
  }

  get detail(): string {
    return this.message;
  }
}
