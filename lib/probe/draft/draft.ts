import { type Dialect, METHOD_NOT_SHOWN, type OperationName } from '../../target/dialect.js';

/**
 * A first profile of a target, drafted by probing it (draft-dialect.ts) or
 * from its OpenAPI document (../openapi-draft.ts). The probe uses the key or
 * control API the run was given (the dialect probe's way to a key), starting
 * from the profile the run has (the reference dialect by default). What the
 * answers show is inferred; what they leave open is a TODO, and keeps the
 * starting profile's value. The probe's own orders (placed, quoted,
 * cancelled, moved by the control API) and a webhook endpoint (made and
 * deleted) show the bodies, their answers, statuses and names; every field
 * not inferred is named in the last TODO, so that no field is a silent guess.
 */
export interface Draft {
  /** The dialect as inferred: the starting one with every inferred value in place. */
  dialect: Dialect;
  /** Which dialect fields were inferred from an answer (`keyPrefix`, `list`, `accountFields.livemode`…). */
  inferred: string[];
  /** What could not be inferred, one sentence each, naming the profile field. */
  todos: string[];
  /** Paths that answered (not 404), and those that answered 404. */
  answered: string[];
  missing: string[];
  requests: number;
}

/** The leaves of a dialect not under any inferred field: each named in the final TODO. */
export function notInferred(dialect: Dialect, inferred: readonly string[]): string[] {
  const covered = (field: string) => inferred.some((i) => field === i || field.startsWith(`${i}.`));
  return leavesOf(dialect).filter(
    (field) =>
      !covered(field) &&
      // Fixed by the API document, never a dialect choice: the methods it shows.
      !(
        /^operations\.\w+\.method$/.test(field) &&
        !METHOD_NOT_SHOWN.includes(field.split('.')[1] as OperationName)
      ) &&
      // One fact with operations.orderCreate.status.
      !(field === 'orderCreatedStatus' && covered('operations.orderCreate.status')) &&
      field !== 'docsUrl',
  );
}

function leavesOf(value: unknown, at = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [at];
  return Object.entries(value).flatMap(([k, v]) => leavesOf(v, at === '' ? k : `${at}.${k}`));
}
