import type { Faker } from '@faker-js/faker';
import type { Violation } from '../violations/violation.js';
import type { Exchange } from './exchange.js';

/**
 * What one piece of work collects: a check's run, one run of a property, a
 * lane's set-up, work shared by a file's checks. The recorder appends to the
 * scope the work runs in (AsyncLocalStorage, so across its awaits and beside
 * other scopes in flight); `EvidenceRecorder.scope` opens one and answers it.
 */
export interface Scope {
  evidence: Exchange[];
  /** Ids of every exchange recorded here, trimmed or not: the replay trace's own steps. */
  steps: number[];
  violations: Violation[];
  /**
   * Judgements that held, with their condition as data (`must`): what a
   * reproduction needs besides the violations to judge as the check did (the
   * status a step had to have; a race's rule over all its answers).
   */
  held: Violation[];
  notes: string[];
  /** Exchanges a violation points at: kept whatever the trimming. */
  pinned: Set<number>;
  /** The faker this work draws from, when not the check's (one run of a property in lanes). */
  faker?: Faker;
}

/** What `scope(fn)` ran: its value or error, and what it collected. */
export type Scoped<T> = ({ value: T } | { error: unknown }) & Scope;

export function emptyScope(faker?: Faker): Scope {
  return {
    evidence: [],
    steps: [],
    violations: [],
    held: [],
    notes: [],
    pinned: new Set(),
    ...(faker ? { faker } : {}),
  };
}
