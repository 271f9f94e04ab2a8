import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long the request being served may still wait for its database
 * (docs/sandbox.md, "When the database is away"): one bound for the whole
 * request, whatever number of statements, connection waits and locks it
 * takes, so that no request waits past it however the database fails.
 * Carried in the async context of the request's work, so that the store
 * (which knows nothing of requests) reads it where it waits.
 */
const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with `budgetMs` of database waiting allowed from now. */
export function withDatabaseDeadline<T>(budgetMs: number, work: () => T): T {
  return deadlines.run(Date.now() + budgetMs, work);
}

/** Milliseconds the current request may still wait (≤ 0: none left); undefined outside a request. */
export function databaseTimeLeft(): number | undefined {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : deadline - Date.now();
}
