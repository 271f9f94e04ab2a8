import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the store knows of the request it serves, carried in the async
 * context of the request's work (the store knows nothing of requests):
 * - its deadline (docs/sandbox.md, "When the database is away"): one bound
 *   for the whole request, whatever number of statements, connection waits
 *   and locks it takes, so that no request waits past it however the
 *   database fails;
 * - rows read ahead by a joined statement (PostgreSQL: the token, its key
 *   and its account in one round trip), each handed out once.
 */
export interface RequestScope {
  /** When the request's database waits must be over (ms since the epoch); moved by `pause`/`resume`. */
  deadline: number;
  pausedAt: number | undefined;
  readonly ahead: Map<string, unknown>;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** A new scope allowing `budgetMs` of database waiting from now. */
export function newRequestScope(budgetMs: number): RequestScope {
  return { deadline: Date.now() + budgetMs, pausedAt: undefined, ahead: new Map() };
}

/** Runs `work` in `scope` (and everything it awaits). */
export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** Stops the clock of the scope's deadline (while the request's body is read: no database wait). */
export function pauseDeadline(scope: RequestScope): void {
  scope.pausedAt = Date.now();
}

/** Starts it again: the time paused does not count. */
export function resumeDeadline(scope: RequestScope): void {
  if (scope.pausedAt !== undefined) scope.deadline += Date.now() - scope.pausedAt;
  scope.pausedAt = undefined;
}

/** Milliseconds the current request may still wait (≤ 0: none left); undefined outside a request. */
export function databaseTimeLeft(): number | undefined {
  const scope = scopes.getStore();
  return scope === undefined ? undefined : scope.deadline - Date.now();
}

/** Keeps a row read ahead for the current request (nothing outside a request). */
export function readAhead(name: string, row: unknown): void {
  scopes.getStore()?.ahead.set(name, row);
}

/** A row read ahead for the current request, once: a second read goes to the database. */
export function takeReadAhead<R>(name: string): R | undefined {
  const ahead = scopes.getStore()?.ahead;
  const row = ahead?.get(name) as R | undefined;
  if (row !== undefined) ahead?.delete(name);
  return row;
}
