import type { FastifyRequest } from 'fastify';
import { LIST_LIMIT } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';

/** Contract §2 lists: `limit` (1..100, default 20) and `starting_after` (an id). */
export interface ListQuery {
  limit: number;
  startingAfter: string | undefined;
  /** Further string parameters the route allows (e.g. `type` on /events). */
  extra: Record<string, string>;
}

export function badParameter(name: string, detail: string): ApiProblem {
  // Contract §2 readings: bad query parameters are 422 with the parameter's name as pointer.
  return new ApiProblem('validation_failed', `Query parameter ${name}: ${detail}`, {
    errors: [{ detail, pointer: name }],
  });
}

function singleValues(request: FastifyRequest, allowed: readonly string[]): Record<string, string> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) throw badParameter(name, 'is not a known parameter.');
    if (typeof value !== 'string') throw badParameter(name, 'must be given once.');
    values[name] = value;
  }
  return values;
}

/** Refuses any query parameter on a route that takes none. */
export function refuseQuery(request: FastifyRequest): void {
  // Most requests have no query: look at its names only when there is one (no array per request).
  for (const _ in request.query ?? {}) {
    singleValues(request, []);
    return;
  }
}

export function parseListQuery(request: FastifyRequest, extra: readonly string[] = []): ListQuery {
  const values = singleValues(request, ['limit', 'starting_after', ...extra]);
  let limit: number = LIST_LIMIT.default;
  if (values.limit !== undefined) {
    if (!/^\d{1,3}$/.test(values.limit)) {
      throw badParameter(
        'limit',
        `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}.`,
      );
    }
    limit = Number(values.limit);
    if (limit < LIST_LIMIT.min || limit > LIST_LIMIT.max) {
      throw badParameter(
        'limit',
        `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}.`,
      );
    }
  }
  const startingAfter = values.starting_after;
  if (startingAfter === '') throw badParameter('starting_after', 'must be an id from this list.');
  const rest = { ...values };
  delete rest.limit;
  delete rest.starting_after;
  return { limit, startingAfter, extra: rest };
}

/** `starting_after` names no object of this list: 422 on the parameter. */
export function unknownCursor(): ApiProblem {
  return badParameter('starting_after', 'names no object of this list.');
}

/** A page of a list (contract §2): `{data, has_more}`. `rows` holds up to limit + 1 entries. */
export function page<T, V>(
  rows: readonly T[],
  limit: number,
  view: (row: T) => V,
): { data: V[]; has_more: boolean } {
  return { data: rows.slice(0, limit).map(view), has_more: rows.length > limit };
}

/** Sequence cursor before every row. */
export const FROM_START = Number.MAX_SAFE_INTEGER;
