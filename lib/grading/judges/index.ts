import type { Judge } from '../judge.js';
import { fixBeforeResending, jsonBodies } from './bodies.js';
import { bearerOnEveryCall, noCredentialsInUrl, secretOnlyInBasic } from './credentials.js';
import {
  externalIdOnEveryOrder,
  fetchAfterDuplicate,
  keyOnEveryOrder,
  keyPerOrder,
  newKeyAfter402,
  newKeyAfterConflict,
  sameKeyAfter500,
} from './orders.js';
import {
  basicCredentials,
  formBody,
  grantType,
  scopeSubset,
  tokensAMinute,
} from './token-request.js';
import { newTokenAfterExpiry, newTokenAfterInvalid } from './tokens.js';
import { laterAfterReadOnly, laterAfterUnavailable, waitAfter429 } from './waits.js';

/**
 * Every client rule's judge but CLIENT-21's, by rule id. CLIENT-21 (rely on
 * `code`) judges the reworded replays with the judges of the situations
 * replayed: lib/grading/grade.ts.
 */
export const JUDGES: ReadonlyMap<string, Judge> = new Map(
  [
    basicCredentials,
    formBody,
    grantType,
    scopeSubset,
    secretOnlyInBasic,
    noCredentialsInUrl,
    bearerOnEveryCall,
    tokensAMinute,
    newTokenAfterExpiry,
    newTokenAfterInvalid,
    jsonBodies,
    keyOnEveryOrder,
    keyPerOrder,
    newKeyAfterConflict,
    sameKeyAfter500,
    newKeyAfter402,
    fetchAfterDuplicate,
    waitAfter429,
    laterAfterReadOnly,
    laterAfterUnavailable,
    externalIdOnEveryOrder,
    fixBeforeResending,
  ].map((judge) => [judge.ruleId, judge]),
);

/** The rule whose judge reads the code of an answer: it judges by the reactions of the others. */
export const WORDS_RULE = 'CLIENT-21';
