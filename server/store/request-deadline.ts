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
interface RequestScope {
  readonly deadline: number;
  readonly ahead: Map<string, unknown>;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `work` with `budgetMs` of database waiting allowed from now. */
export function withDatabaseDeadline<T>(budgetMs: number, work: () => T): T {
  return scopes.run({ deadline: Date.now() + budgetMs, ahead: new Map() }, work);
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

/** What the current request keeps for its whole life (its account, say): read as often as needed. */
export function requestNote(name: string): unknown {
  return scopes.getStore()?.ahead.get(`note:${name}`);
}

/** Sets a note of the current request (nothing outside a request). */
export function noteForRequest(name: string, value: unknown): void {
  scopes.getStore()?.ahead.set(`note:${name}`, value);
}

/** A row read ahead for the current request, once: a second read goes to the database. */
export function takeReadAhead<R>(name: string): R | undefined {
  const ahead = scopes.getStore()?.ahead;
  const row = ahead?.get(name) as R | undefined;
  if (row !== undefined) ahead?.delete(name);
  return row;
}
